import { EventSource } from "eventsource";

export interface RelayEvent {
  kind: string;
  data: { to?: string[]; list?: string; record: Record<string, unknown> | null };
}

/** The kinds of event a relay client listens to unless told otherwise. */
const KINDS = ["message", "message-deleted", "memberships", "removed", "attachment", "preview", "gone"];

/**
 * Opens PocketBase's live relay (pocketbase/relay.go) like a web process does: resolves with the relay's
 * id and the events it receives, in order.
 */
export async function openRelay(pbUrl: string, kinds: string[] = KINDS) {
  const events: RelayEvent[] = [];
  const source = new EventSource(`${pbUrl}/api/chatcrypt/relay`);
  const id = await new Promise<string>((resolve, reject) => {
    source.addEventListener("ready", (m) => resolve(JSON.parse(m.data).relay));
    source.onerror = () => reject(new Error("relay refused"));
  });
  for (const kind of kinds) source.addEventListener(kind, (m) => events.push({ kind, data: JSON.parse(m.data) }));
  return { id, events, source, close: () => source.close() };
}
