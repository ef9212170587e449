import { LockIcon } from "~/components/ui/icons";
import type { Channel } from "~/chat-types";

interface Props {
  live: boolean;
  channel: Channel;
  isCreator: boolean;
  hasMessages: boolean;
  onClear: () => void;
  onShare: () => void;
  onCopyId: () => void;
}

/** Chat pane header (spec §2.7): name, 'End-to-end encrypted', and the channel actions. */
export function ChatHeader({ live, channel, isCreator, hasMessages, onClear, onShare, onCopyId }: Props) {
  return (
    <div className="chat-header">
      <div className="chat-title">
        <h2># {channel.name}</h2>
        <span className="e2ee-badge">
          <LockIcon size={12} /> End-to-end encrypted
        </span>
        {!live && (
          <span className="live-status" role="status">
            Connecting...
          </span>
        )}
      </div>
      <div className="chat-actions">
        {isCreator && hasMessages && (
          <button type="button" className="btn btn-small" onClick={onClear}>
            Clear Messages
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={onShare}>
          Share Link
        </button>
        <button type="button" className="btn btn-small" onClick={onCopyId}>
          Copy ID
        </button>
      </div>
    </div>
  );
}
