/** A sender's name as messages show it: a deactivated account's with "(deactivated)" next to it. */
export const shownName = (profile: { username: string; deactivated?: boolean }) =>
  profile.deactivated ? `${profile.username} (deactivated)` : profile.username;

/** What members of a conversation see once a deactivated person's devices are out of it. */
export const removedByAdministrator = (name: string) => `${name} was removed by an administrator`;
