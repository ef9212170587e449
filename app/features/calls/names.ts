/**
 * The names a call shows for its people (a LiveKit identity is `userId:deviceId`, ADR 30): the user's
 * own device "alice (you)", another device of theirs "alice (you, on another device)", and a second
 * device of someone else "bob (another device)", so that no two tiles, cameras or screens share a name.
 */
export function callNames(people: { identity: string; name: string; local: boolean }[]): Map<string, string> {
  const userOf = (identity: string) => identity.split(":")[0];
  const me = people.find((p) => p.local);
  const seen = new Set<string>();
  const names = new Map<string, string>();
  // (the user's own device first: its tile is the one that says "you")
  for (const person of me ? [me, ...people.filter((p) => p !== me)] : people) {
    const user = userOf(person.identity);
    if (person.local) names.set(person.identity, `${person.name} (you)`);
    else if (me && user === userOf(me.identity)) names.set(person.identity, `${person.name} (you, on another device)`);
    else names.set(person.identity, seen.has(user) ? `${person.name} (another device)` : person.name);
    seen.add(user);
  }
  return names;
}
