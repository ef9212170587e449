import { roleTags } from "~/features/roles/roles";

/** A person's role (when not "member") and "Deactivated", beside their name in members panels and pickers. */
export function RoleTags({ person }: { person: { role?: string; deactivated?: boolean } }) {
  return (
    <>
      {roleTags(person).map((tag) => (
        <span key={tag} className="role-tag">
          {tag}
        </span>
      ))}
    </>
  );
}
