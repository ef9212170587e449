import type { DecryptedMessage } from "~/features/messages/messages.client";
import { UNREADABLE_ROOT } from "~/conversation/messages/unreadable";
import { formatTime } from "~/features/messages/text";
import { PersonName } from "~/features/profile-cards/PersonName";
import { ThreadSummaryLine } from "~/features/threads/ThreadSummaryLine";

/**
 * In the conversation, a thread's first message this device cannot read (sent before it joined): who
 * sent it and when, and its thread's replies, which open the thread. Nothing to react to or edit.
 */
export function UnreadableRoot({ message: m, onOpenThread }: { message: DecryptedMessage; onOpenThread: (id: string) => void }) {
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
