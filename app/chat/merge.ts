/** Pure helpers for the message list: order, merge without duplicates, and what to ask for after a reconnect. */

export interface Ordered {
  id: string;
  created: string;
}

export function compareMessages(a: Ordered, b: Ordered): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Existing plus incoming, each id once (incoming wins), oldest first. */
export function mergeMessages<T extends Ordered>(existing: readonly T[], incoming: readonly T[]): T[] {
  if (incoming.length === 0) return existing as T[];
  const byId = new Map<string, T>();
  for (const m of existing) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

/** The newest timestamp seen: a catch-up asks for everything created at or after it. */
export function latestCreated(messages: readonly Ordered[]): string | undefined {
  return messages.length ? messages[messages.length - 1].created : undefined;
}
