import { usePins } from "~/features/key-pins/usePins.client";
import { LockIcon } from "~/ui/icons";

/** Chat pane with no channel selected (spec §2.6), and the next step: create a channel or join one (a guest: by invite only). */
export function EmptyChat({ hasChannels, onCreate, onJoin }: { hasChannels: boolean; onCreate?: () => void; onJoin?: () => void }) {
  return (
    <section className="chat-empty" aria-label="No channel selected">
      <div className="chat-empty-mark" aria-hidden="true">
        <LockIcon size={56} />
      </div>
      <h2>Military grade encrypted chat for professionals</h2>
      <p>Because privacy matters.</p>
      <p className="chat-empty-next">
        {hasChannels
          ? // (a guest starts none: invites bring them in)
            onCreate
            ? "Pick a channel from the list, or start another one."
            : "Pick a channel from the list."
          : onCreate
            ? "You are not in any channel yet. Create one and share its invite link, or join one with its ID and password."
            : onJoin
              ? "You are not in any channel yet. Join one with its invite link, or its ID and password."
              : "You are not in any channel yet. Join one with its invite link."}
      </p>
      <div className="chat-empty-actions">
        {onCreate && (
          <button type="button" className="btn btn-primary" onClick={onCreate}>
            Create a channel
          </button>
        )}
        {onJoin && (
          <button type="button" className="btn" onClick={onJoin}>
            Join a channel
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * An open channel without messages: invite someone. Not where messages are held back for someone's new
 * keys (ADR 0051): the key-change notice counts them, and the conversation is not empty.
 */
export function EmptyChannel({ channelId, onShare }: { channelId: string; onShare?: () => void }) {
  const { held } = usePins();
  if ([...held].some(([key, ids]) => key.startsWith(`${channelId} `) && ids.size > 0)) return null;
  // A direct conversation has nobody to invite by link.
  if (!onShare)
    return (
      <div className="chat-empty-channel">
        <p>No messages yet. Say hello.</p>
      </div>
    );
  return (
    <div className="chat-empty-channel">
      <p>No messages yet. Invite people with the channel's link, then say hello.</p>
      <button type="button" className="btn btn-small" onClick={onShare}>
        Copy invite link
      </button>
    </div>
  );
}
