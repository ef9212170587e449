import type { InviteSummary } from "~/features/invites/types";

const STATUS: Record<InviteSummary["status"], string> = { valid: "active", expired: "expired", revoked: "revoked", used: "used up" };

const when = (iso: string) =>
  new Date(iso.replace(" ", "T")).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
/** When an invite was made, to the second (two of one person on one day with the same limits differ by it). */
const madeAt = (iso: string) =>
  new Date(iso.replace(" ", "T")).toLocaleString(undefined, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });

/** Invites as a list: who made each, when it expires, its uses, and "Revoke" while it can still be used. */
export function InviteList(props: {
  invites: InviteSummary[];
  showChannel?: boolean;
  busy?: boolean;
  onRevoke: (invite: InviteSummary) => void;
}) {
  if (props.invites.length === 0) return <p className="hint">No invites yet.</p>;
  return (
    <ul className="invite-list">
      {props.invites.map((invite) => {
        const channel = invite.channel_name ? `#${invite.channel_name}` : "a sealed channel";
        const uses = invite.max_uses ? `${invite.uses} of ${invite.max_uses} uses` : `${invite.uses} ${invite.uses === 1 ? "use" : "uses"}`;
        const expiry = invite.expires ? `expires ${when(invite.expires)}` : "never expires";
        const maker = invite.created_by_name || "deleted user";
        return (
          // (focus stays on the row once its Revoke is gone: it then says "revoked")
          <li key={invite.id} tabIndex={-1}>
            <span>
              {props.showChannel && <strong>{channel} </strong>}
              made by {maker}, {expiry}, {uses}, {STATUS[invite.status]}
            </span>
            {invite.status === "valid" && (
              <button
                type="button"
                className="btn btn-small btn-danger"
                disabled={props.busy}
                // (each says which invite: one channel's may differ only by expiry and uses)
                aria-label={`Revoke the invite to ${channel} made by ${maker} on ${madeAt(invite.created)}, ${expiry}, ${uses}`}
                onClick={(e) => {
                  e.currentTarget.closest("li")?.focus();
                  props.onRevoke(invite);
                }}
              >
                Revoke
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
