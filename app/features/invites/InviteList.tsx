import type { InviteSummary } from "~/features/invites/types";

const STATUS: Record<InviteSummary["status"], string> = { valid: "active", expired: "expired", revoked: "revoked", used: "used up" };

const when = (iso: string) =>
  new Date(iso.replace(" ", "T")).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });

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
        return (
          <li key={invite.id}>
            <span>
              {props.showChannel && <strong>{channel} </strong>}
              made by {invite.created_by_name || "deleted user"}, {invite.expires ? `expires ${when(invite.expires)}` : "never expires"},{" "}
              {uses}, {STATUS[invite.status]}
            </span>
            {invite.status === "valid" && (
              <button
                type="button"
                className="btn btn-small btn-danger"
                disabled={props.busy}
                aria-label={`Revoke the invite by ${invite.created_by_name} made ${when(invite.created)}`}
                onClick={() => props.onRevoke(invite)}
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
