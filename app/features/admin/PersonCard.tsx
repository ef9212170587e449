import type { AdminPerson } from "~/features/admin/types";
import { ROLES, isAdminRole, roleName } from "~/features/roles/roles";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The roles the viewer may give this person: an owner any; an admin member or guest, to members and guests only. */
export function rolesFor(viewerRole: string, person: AdminPerson): string[] {
  // (a deactivated account is not named owner: the server refuses it, 409)
  if (viewerRole === "owner") return ROLES.filter((role) => role !== "owner" || !person.deactivated || person.role === "owner");
  if (isAdminRole(person.role)) return [person.role];
  return ["member", "guest"];
}

export type PersonAction = "deactivate" | "reactivate" | "sign-out" | "reset-code";

/** One person in the People section: what the server knows of them, and what the viewer may do. */
export function PersonCard(props: {
  person: AdminPerson;
  viewer: { id: string; role: string };
  /** The workspace's only owner: their role cannot change until there is another. */
  lastOwner: boolean;
  busy: boolean;
  onRole: (person: AdminPerson, role: string) => void;
  onAction: (person: AdminPerson, action: PersonAction) => void;
}) {
  const { person, viewer } = props;
  const name = person.username || person.email;
  const roles = props.lastOwner ? [person.role] : rolesFor(viewer.role, person);
  const hintId = `admin-role-hint-${person.id}`;
  const manageable = viewer.role === "owner" || !isAdminRole(person.role);
  const self = person.id === viewer.id;
  return (
    <li className="admin-person" aria-label={name}>
      <div className="admin-person-head">
        <h3>{name}</h3>
        <span className="admin-person-email">
          {person.email}
          {person.emailPending ? " (not confirmed)" : ""}
        </span>
      </div>
      <dl className="admin-person-facts">
        <div>
          <dt>Role</dt>
          <dd>{roleName(person.role)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{person.deactivated ? "Deactivated" : "Active"}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{person.lastSeen ? when.format(new Date(person.lastSeen)) : "Never"}</dd>
        </div>
        <div>
          <dt>Devices</dt>
          <dd>{person.devices}</dd>
        </div>
        <div>
          <dt>Channels</dt>
          <dd>{person.channels}</dd>
        </div>
      </dl>
      <div className="admin-person-actions">
        <label className="admin-role">
          <span aria-hidden="true">Role</span>
          {/* (busy: aria-disabled, not disabled, which would drop the keyboard's focus; a change then is ignored;
              the buttons below too) */}
          <select
            aria-label={`Change role for ${name}`}
            value={person.role}
            disabled={roles.length < 2}
            aria-disabled={props.busy || undefined}
            aria-describedby={props.lastOwner && viewer.role === "owner" ? hintId : undefined}
            onChange={(e) => !props.busy && props.onRole(person, e.target.value)}
          >
            {roles.map((role) => (
              <option key={role} value={role}>
                {roleName(role)}
              </option>
            ))}
          </select>
        </label>
        {props.lastOwner && viewer.role === "owner" && (
          <p className="hint" id={hintId}>
            The workspace must keep an owner: name another owner before changing this one&apos;s role.
          </p>
        )}
        {manageable && !self && (
          <>
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Sign out all devices of ${name}`}
              aria-disabled={props.busy || undefined}
              onClick={() => !props.busy && props.onAction(person, "sign-out")}
            >
              Sign out all devices
            </button>
            {!person.deactivated && (
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Issue a reset code for ${name}`}
                aria-disabled={props.busy || undefined}
                onClick={() => !props.busy && props.onAction(person, "reset-code")}
              >
                Issue a reset code
              </button>
            )}
            {person.deactivated ? (
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Reactivate ${name}`}
                aria-disabled={props.busy || undefined}
                onClick={() => !props.busy && props.onAction(person, "reactivate")}
              >
                Reactivate
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Deactivate ${name}`}
                aria-disabled={props.busy || undefined}
                onClick={() => !props.busy && props.onAction(person, "deactivate")}
              >
                Deactivate
              </button>
            )}
          </>
        )}
      </div>
    </li>
  );
}
