/** Workspace roles (docs/decisions/0053-roles.md); the server enforces them, the page only shows them. */
export const ROLES = ["owner", "admin", "member", "guest"] as const;
export type Role = (typeof ROLES)[number];

const LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", guest: "Guest" };

/** A role's name as people read it ("Member" for anything unknown). */
export const roleName = (role: string | undefined) => LABELS[(ROLES as readonly string[]).includes(role ?? "") ? (role as Role) : "member"];

export const isAdminRole = (role: string | undefined) => role === "owner" || role === "admin";

/** What a list shows beside a person: their role when it is not "member", and "Deactivated". */
export function roleTags(person: { role?: string; deactivated?: boolean }): string[] {
  const tags: string[] = [];
  if (person.role && person.role !== "member" && (ROLES as readonly string[]).includes(person.role)) tags.push(roleName(person.role));
  if (person.deactivated) tags.push("Deactivated");
  return tags;
}

/** What the signed-in user may do in the workspace, as the page shows it (docs/decisions/0095-standing-live.md). */
export interface Standing {
  role: string;
  /** "New channel" is offered: not to guests, nor to members when only admins create channels. */
  canCreateChannels: boolean;
}
