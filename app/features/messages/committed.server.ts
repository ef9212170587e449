/**
 * Message sends waiting for their message's relay event (docs/decisions/0042-send-answered-on-commit.md).
 * PocketBase publishes a new message to the web processes once it is stored, about a millisecond
 * before it answers the create request itself; a send is answered with whichever comes first. The
 * event reaches a web process only when one of the channel's members has a live stream there, so
 * the create's own answer is always awaited too.
 */
type Committed = Record<string, unknown>;

const waiting = new Map<string, (record: Committed) => void>();

const keyOf = (channel: unknown, sender: unknown, content: unknown) => `${String(channel)}\n${String(sender)}\n${String(content)}`;

/** Waits for the relay event of the message this send creates; `done` ends the wait. */
export function awaitCommit(channelId: string, senderId: string, encryptedContent: string) {
  const key = keyOf(channelId, senderId, encryptedContent);
  let resolve: (record: Committed) => void = () => {};
  const committed = new Promise<Committed>((r) => (resolve = r));
  // the same envelope sent again while the first send waits (a retry, which PocketBase refuses as a
  // repeat): only the first send waits for the event
  const own = !waiting.has(key);
  if (own) waiting.set(key, resolve);
  return {
    committed,
    done: () => {
      if (own && waiting.get(key) === resolve) waiting.delete(key);
    },
  };
}

/**
 * A new message's relay event: the send that created it, if it waits in this process, is answered
 * (once the current task's microtasks run). Returns whether one was.
 */
export function messageCommitted(record: Committed): boolean {
  if (waiting.size === 0 || typeof record.encrypted_content !== "string") return false;
  const key = keyOf(record.channel, record.sender, record.encrypted_content);
  const resolve = waiting.get(key);
  if (!resolve) return false;
  waiting.delete(key);
  resolve(record);
  return true;
}

/** Sends waiting now (tests). */
export const waitingSends = () => waiting.size;
