import { LockIcon } from "~/ui/icons";
import { useOnline } from "~/lib/useOnline";
import type { ReactNode } from "react";
import type { Channel } from "~/features/channels/types";

interface Props {
  live: boolean;
  channel: Channel;
  isCreator: boolean;
  hasMessages: boolean;
  onClear: () => void;
  onShare: () => void;
  onCopyId: () => void;
  onNotifications: () => void;
  /** The Translate dropdown. */
  translate: ReactNode;
  /** Save Chat, shown when messages exist. */
  onSaveChat?: () => void;
  newsOpen: boolean;
  onToggleNews: () => void;
  membersOpen: boolean;
  onToggleMembers: () => void;
}

/** Chat pane header (spec §2.7): name, 'End-to-end encrypted', and the channel actions. */
export function ChatHeader(props: Props) {
  const { live, channel, isCreator, hasMessages, onClear, onShare, onCopyId, onNotifications, translate, onSaveChat } = props;
  const online = useOnline();
  return (
    <div className="chat-header">
      <div className="chat-title">
        <h2># {channel.name}</h2>
        <span className="e2ee-badge">
          <LockIcon size={12} /> End-to-end encrypted
        </span>
        {(!live || !online) && (
          <span className="live-status" role="status">
            {online ? "Reconnecting..." : "Offline: messages wait until the connection is back"}
          </span>
        )}
      </div>
      <div className="chat-actions">
        {isCreator && hasMessages && (
          <button type="button" className="btn btn-small" onClick={onClear}>
            Clear Messages
          </button>
        )}
        <button type="button" className="btn btn-small" aria-pressed={props.membersOpen} onClick={props.onToggleMembers}>
          Members
        </button>
        <button type="button" className="btn btn-small" onClick={onNotifications}>
          Notifications
        </button>
        {translate}
        {hasMessages && onSaveChat && (
          <button type="button" className="btn btn-small" onClick={onSaveChat}>
            Save Chat
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={onShare}>
          Share Link
        </button>
        <button type="button" className="btn btn-small" onClick={onCopyId}>
          Copy ID
        </button>
        <button type="button" className="btn btn-small" aria-pressed={props.newsOpen} onClick={props.onToggleNews}>
          News Feed
        </button>
      </div>
    </div>
  );
}
