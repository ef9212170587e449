import { LockIcon } from "~/ui/icons";
import { MenuButton } from "~/ui/MenuButton";
import { useOnline } from "~/lib/useOnline";
import type { ReactNode } from "react";
import type { Channel } from "~/features/channels/types";
import { NotificationChoices } from "~/features/notify-rules/NotificationChoices";
import { RetentionNote } from "~/features/retention/RetentionNote";

interface Props {
  live: boolean;
  channel: Channel;
  isCreator: boolean;
  hasMessages: boolean;
  onClear: () => void;
  onShare: () => void;
  onCopyId: () => void;
  /** The Translate dropdown. */
  translate: ReactNode;
  /** Save Chat, shown when messages exist. */
  onSaveChat?: () => void;
  newsOpen: boolean;
  /** Absent when the server has no news feed. */
  onToggleNews?: () => void;
  membersOpen: boolean;
  onToggleMembers: () => void;
  pinnedOpen: boolean;
  onTogglePinned: () => void;
  /** A group conversation's "Add people". */
  onAddPeople?: () => void;
  /** A group conversation's "Rename conversation". */
  onRename?: () => void;
  /** The "Start call" button (features/calls). */
  call?: ReactNode;
}

/** Chat pane header (spec §2.7): name, 'End-to-end encrypted', and the channel actions. */
export function ChatHeader(props: Props) {
  const { live, channel, isCreator, hasMessages, onClear, onShare, onCopyId, translate, onSaveChat } = props;
  const online = useOnline();
  // Wide screens show every action as a button; narrow ones fold them into "More" (CSS picks one).
  // A direct conversation has no password to share, and nobody clears it for the others.
  const channelOnly = !channel.direct;
  const actions: { label: string; onSelect: () => void; pressed?: boolean }[] = [
    ...(channelOnly && isCreator && hasMessages ? [{ label: "Clear Messages", onSelect: onClear }] : []),
    { label: channelOnly ? "Members" : "Participants", onSelect: props.onToggleMembers, pressed: props.membersOpen },
    { label: "Pinned", onSelect: props.onTogglePinned, pressed: props.pinnedOpen },
    ...(props.onAddPeople ? [{ label: "Add people", onSelect: props.onAddPeople }] : []),
    ...(props.onRename ? [{ label: "Rename conversation", onSelect: props.onRename }] : []),
    ...(hasMessages && onSaveChat ? [{ label: "Save Chat", onSelect: onSaveChat }] : []),
    ...(channelOnly
      ? [
          { label: "Share Link", onSelect: onShare },
          { label: "Copy ID", onSelect: onCopyId },
        ]
      : []),
    ...(props.onToggleNews ? [{ label: "News Feed", onSelect: props.onToggleNews, pressed: props.newsOpen }] : []),
  ];
  return (
    <div className="chat-header">
      <div className="chat-title">
        <h2>{channel.direct ? `@ ${channel.name}` : `# ${channel.name}`}</h2>
        <span className="e2ee-badge">
          <LockIcon size={12} /> End-to-end encrypted
        </span>
        <RetentionNote channelId={channel.id} />
        {channel.direct && (
          <span className="direct-participants">
            {channel.participants?.length === 2 ? "Direct message with " : "Participants: "}
            {(channel.participants ?? []).map((p) => p.username).join(", ")}
          </span>
        )}
        {(!live || !online) && (
          <span className="live-status" role="status">
            {online ? "Reconnecting..." : "Offline: messages wait until the connection is back"}
          </span>
        )}
      </div>
      <div className="chat-actions">
        {actions.map((action) => (
          <button
            key={action.label}
            type="button"
            className="btn btn-small chat-action"
            aria-pressed={action.pressed}
            onClick={action.onSelect}
          >
            {action.label}
          </button>
        ))}
        {props.call}
        {translate}
        <NotificationChoices channel={channel} />
        <div className="chat-more">
          <MenuButton label="More" menuLabel={channelOnly ? "Channel actions" : "Conversation actions"} items={actions} />
        </div>
      </div>
    </div>
  );
}
