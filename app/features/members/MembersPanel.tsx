import { RoleTags } from "~/features/roles/RoleTags";
import { isAdminRole } from "~/features/roles/roles";
import { BackButton } from "~/ui/BackButton";
import type { ReactNode } from "react";
import { usePanelFocus } from "~/ui/usePanelFocus";
import type { ChannelMember } from "~/features/members/types";
import { SafetyNumber } from "~/features/key-pins/SafetyNumber";
import { useChannelAccess } from "~/features/invites/useChannelAccess.client";
import { ChannelAccessSection } from "~/features/invites/ChannelAccessSection";
import { PersonName } from "~/features/profile-cards/PersonName";

interface Props {
  members: ChannelMember[];
  userId: string;
  isCreator: boolean;
  onRemove: (member: ChannelMember) => void;
  onClose: () => void;
  /** A sealed channel's section (its security code). */
  extra?: ReactNode;
  /** A direct conversation: its people are participants, never a channel's members (ADR 0050). */
  direct?: boolean;
  /** A channel (never a direct conversation): its admins see its invites and removals here. */
  channel?: { id: string; sealed: boolean };
}

/** The channel's members (a direct conversation's participants); the creator and channel admins are marked and may remove others. */
export function MembersPanel({ members, userId, isCreator, onRemove, onClose, extra, direct = false, channel }: Props) {
  const panel = usePanelFocus<HTMLElement>(onClose);
  const access = useChannelAccess(channel?.id ?? null, members);
  const manages = isCreator || access.access.manage !== "";
  // (the workspace's owner stays in every channel; an admin goes only through the owner or an admin)
  const mine = members.find((m) => m.userId === userId)?.role;
  const mayRemove = (m: ChannelMember) =>
    manages && !m.isCreator && m.userId !== userId && m.role !== "owner" && (m.role !== "admin" || isAdminRole(mine));
  const title = direct ? "Participants" : "Members";
  return (
    <aside ref={panel} className="side-panel members-panel" aria-label={title}>
      <div className="side-panel-head">
        <BackButton onBack={onClose} />
        <h2>
          {title} ({members.length})
        </h2>
        <button type="button" className="icon-button panel-close" aria-label={`Close ${title.toLowerCase()}`} onClick={onClose}>
          ×
        </button>
      </div>
      {extra}
      <ul className="member-list">
        {members.map((m) => (
          <li key={m.userId}>
            <span className="member-name">
              <PersonName userId={m.userId} username={m.username} fallback={`@${m.username}`} />
              {m.userId === userId && " (you)"}
            </span>
            <RoleTags person={m} />
            {m.isCreator && <span className="member-role">creator</span>}
            {m.isAdmin && !m.isCreator && <span className="member-role">channel admin</span>}
            {access.access.name_admins && !m.isCreator && m.userId !== userId && (
              <button
                type="button"
                className="btn btn-small"
                aria-label={m.isAdmin ? `Remove ${m.username} as channel admin` : `Make ${m.username} a channel admin`}
                onClick={() => void access.setAdmin(m.userId, !m.isAdmin)}
              >
                {m.isAdmin ? "Remove channel admin" : "Make channel admin"}
              </button>
            )}
            {mayRemove(m) && (
              <button type="button" className="btn btn-small btn-danger" aria-label={`Remove ${m.username}`} onClick={() => onRemove(m)}>
                Remove
              </button>
            )}
            {m.userId !== userId && <SafetyNumber userId={userId} memberId={m.userId} username={m.username} />}
          </li>
        ))}
      </ul>
      {channel && <ChannelAccessSection state={access} sealed={channel.sealed} userId={userId} channelId={channel.id} />}
    </aside>
  );
}
