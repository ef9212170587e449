import { FormError } from "~/ui/Form";
import { InviteList } from "~/features/invites/InviteList";
import { RevokeNote } from "~/features/invites/InviteDialogs";
import type { ChannelAccessState } from "~/features/invites/useChannelAccess.client";
import { ChangePassword } from "~/features/channel-password/ChangePassword";
import { ChannelRetention } from "~/features/retention/ChannelRetention";

/** In the members panel, for the channel's admins: its invites (Revoke) and the people removed from it (Lift ban). */
export function ChannelAccessSection({
  state,
  sealed,
  userId,
  channelId,
}: {
  state: ChannelAccessState;
  sealed: boolean;
  userId: string;
  channelId: string;
}) {
  const { access } = state;
  if (!access.manage) return null;
  return (
    <section className="channel-access" aria-label="Invites and removals">
      <h3>Invites</h3>
      <InviteList invites={access.invites ?? []} onRevoke={(invite) => void state.revoke(invite.id)} />
      <RevokeNote sealed={sealed} />
      {!sealed && <ChangePassword userId={userId} channelId={channelId} />}
      <ChannelRetention channelId={channelId} />
      <h3>Removed</h3>
      {(access.bans ?? []).length === 0 ? (
        <p className="hint">Nobody was removed.</p>
      ) : (
        <ul className="invite-list">
          {(access.bans ?? []).map((ban) => (
            <li key={ban.user_id}>
              <span>
                {ban.username || "deleted user"}
                {ban.banned_by && `, removed by ${ban.banned_by}`}
              </span>
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Lift ban for ${ban.username}`}
                onClick={() => void state.liftBan(ban.user_id, ban.username)}
              >
                Lift ban
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError message={state.error} />
    </section>
  );
}
