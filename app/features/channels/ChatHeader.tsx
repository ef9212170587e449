import { ChevronDownIcon, CopyIcon, DownloadIcon, LinkIcon, LockIcon, TrashIcon } from "~/ui/icons";
import { HeaderButton } from "~/features/channels/HeaderButton";
import { MenuButton } from "~/ui/MenuButton";
import { useOnline } from "~/lib/useOnline";
import type { ReactNode } from "react";
import type { Channel } from "~/conversation/channels/types";
import { NotificationChoices } from "~/features/notify-rules/NotificationChoices";
import { RetentionNote } from "~/features/retention/RetentionNote";

interface Props {
  live: boolean;
  channel: Channel;
  isCreator: boolean;
  hasMessages: boolean;
  onClear: () => void;
  /** Share Link and "Invite people" (none for a guest). */
  onShare?: () => void;
  onCopyId: () => void;
  /** The Translate dropdown. */
  translate: ReactNode;
  /** Save Chat, shown when messages exist. */
  onSaveChat?: () => void;
  /** Absent when the server has no news feed. */
  onToggleNews?: () => void;
  onToggleMembers: () => void;
  onTogglePinned: () => void;
  /** A group conversation's "Add people" (its "Invite people"). */
  onAddPeople?: () => void;
  /** A group conversation's "Rename conversation". */
  onRename?: () => void;
  /** The "Start call" button (features/calls). */
  call?: ReactNode;
}

/**
 * Chat pane header (spec §2.7): name, 'End-to-end encrypted', and the channel actions in one row
 * (docs/decisions/0074-the-channel-header-in-one-row.md): the specification's buttons as icons with
 * their names (Clear Messages last), the rest behind "Channel details". Narrow screens fold it all into "More".
 */
export function ChatHeader(props: Props) {
  const { live, channel, isCreator, hasMessages, onClear, onShare, onCopyId, translate, onSaveChat } = props;
  const online = useOnline();
  // A direct conversation has no password to share, and nobody clears it for the others.
  const channelOnly = !channel.direct;
  // (a direct conversation says "conversation", never "channel")
  const detailsLabel = channelOnly ? "Channel details" : "Conversation details";
  const invite = channelOnly ? onShare : props.onAddPeople;
  const details = [
    { label: channelOnly ? "Members" : "Participants", onSelect: props.onToggleMembers },
    { label: "Pinned", onSelect: props.onTogglePinned },
    ...(props.onToggleNews ? [{ label: "News Feed", onSelect: props.onToggleNews }] : []),
    ...(invite ? [{ label: "Invite people", onSelect: invite }] : []),
    ...(props.onRename ? [{ label: "Rename conversation", onSelect: props.onRename }] : []),
  ];
  const save = hasMessages && onSaveChat ? onSaveChat : undefined;
  const clear = channelOnly && isCreator && hasMessages ? onClear : undefined;
  const folded = [
    ...details,
    ...(save ? [{ label: "Save Chat", onSelect: save }] : []),
    ...(channelOnly ? [{ label: "Copy ID", onSelect: onCopyId }] : []),
    ...(clear ? [{ label: "Clear Messages", onSelect: clear }] : []),
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
        {props.call}
        {translate}
        <NotificationChoices channel={channel} />
        {save && <HeaderButton icon={<DownloadIcon />} label="Save Chat" onClick={save} />}
        {channelOnly && onShare && <HeaderButton icon={<LinkIcon />} label="Share Link" onClick={onShare} />}
        {channelOnly && <HeaderButton icon={<CopyIcon />} label="Copy ID" onClick={onCopyId} />}
        <div className="chat-action chat-details">
          <MenuButton label={detailsLabel} icon={<ChevronDownIcon />} menuLabel={detailsLabel} items={details} />
        </div>
        {clear && <HeaderButton icon={<TrashIcon />} label="Clear Messages" onClick={clear} danger />}
        <div className="chat-more">
          <MenuButton label="More" menuLabel={channelOnly ? "Channel actions" : "Conversation actions"} items={folded} />
        </div>
      </div>
    </div>
  );
}
