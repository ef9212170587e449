import { RoleTags } from "~/features/roles/RoleTags";
import type { ReactNode } from "react";
import { usePanelFocus } from "~/ui/usePanelFocus";
import type { ChannelMember } from "~/features/members/types";
import { SafetyNumber } from "~/features/pins/SafetyNumber";

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
}

/** The channel's members (a direct conversation's participants); the creator is marked and may remove others. */
export function MembersPanel({ members, userId, isCreator, onRemove, onClose, extra, direct = false }: Props) {
  const panel = usePanelFocus<HTMLElement>(onClose);
  const title = direct ? "Participants" : "Members";
  return (
    <aside ref={panel} className="side-panel members-panel" aria-label={title}>
      <div className="side-panel-head">
        <h2>
          {title} ({members.length})
        </h2>
        <button type="button" className="icon-button" aria-label={`Close ${title.toLowerCase()}`} onClick={onClose}>
          ×
        </button>
      </div>
      {extra}
      <ul className="member-list">
        {members.map((m) => (
          <li key={m.userId}>
            <span className="member-name">
              @{m.username}
              {m.userId === userId && " (you)"}
            </span>
            <RoleTags person={m} />
            {m.isCreator && <span className="member-role">creator</span>}
            {isCreator && m.userId !== userId && (
              <button type="button" className="btn btn-small btn-danger" aria-label={`Remove ${m.username}`} onClick={() => onRemove(m)}>
                Remove
              </button>
            )}
            {m.userId !== userId && <SafetyNumber userId={userId} memberId={m.userId} username={m.username} />}
          </li>
        ))}
      </ul>
    </aside>
  );
}
