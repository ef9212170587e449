/** People named in a sentence: "bob", "bob and carol", "bob, carol and dave" ("" for none). */
export function namesList(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
