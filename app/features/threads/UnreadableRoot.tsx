import type { DecryptedMessage } from "~/features/messages/messages.client";
import { UNREADABLE_ROOT } from "~/conversation/messages/unreadable";
import { formatTime } from "~/features/messages/text";
import { PersonName } from "~/features/profile-cards/PersonName";
import { ThreadSummaryLine } from "~/features/threads/ThreadSummaryLine";
import { useThreadSummary } from "~/features/threads/summaries.client";

/**
 * In the conversation, a thread's first message this device cannot read (sent before it joined): who
 * sent it and when, and its thread's replies, which open the thread. Nothing to react to or edit; nothing
 * at all once its replies are gone.
 */
export function UnreadableRoot({ message: m, onOpenThread }: { message: DecryptedMessage; onOpenThread: (id: string) => void }) {
  // (it stands in for its replies only: their last one deleted, it goes)
  if (!useThreadSummary(m.id)) return null;
  return (
    <article id={`message-${m.id}`} className="message unreadable-root" aria-label={`Message from ${m.senderUsername}`}>
      <header>
        <span className="sender">{m.own ? "You" : <PersonName userId={m.senderId} username={m.senderUsername} />}</span>
        <time dateTime={m.created}>{formatTime(m.created)}</time>
      </header>
      <p className="unreadable-note">{UNREADABLE_ROOT}</p>
      <ThreadSummaryLine rootId={m.id} onOpen={() => onOpenThread(m.id)} />
    </article>
  );
}
