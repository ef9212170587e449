/** Pure helpers for the message list: order, merge without duplicates, and what to ask for after a reconnect. */

export interface Ordered {
  id: string;
  created: string;
}

export function compareMessages(a: Ordered, b: Ordered): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Existing plus incoming, each id once, oldest first. When an id is already there, `combine` decides
 * (by default the incoming copy wins).
 */
export function mergeMessages<T extends Ordered>(
  existing: readonly T[],
  incoming: readonly T[],
  combine: (current: T, next: T) => T = (_, next) => next,
): T[] {
  if (incoming.length === 0) return existing as T[];
  const byId = new Map<string, T>();
  for (const m of existing) byId.set(m.id, m);
  for (const m of incoming) {
    const current = byId.get(m.id);
    byId.set(m.id, current ? combine(current, m) : m);
  }
  return [...byId.values()].sort(compareMessages);
}

/** Items of both lists, each id once (the later list wins). */
export function unionById<T extends { id: string }>(a: readonly T[], b: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const x of a) byId.set(x.id, x);
  for (const x of b) byId.set(x.id, x);
  return [...byId.values()];
}

/** The newest timestamp seen: a catch-up asks for everything created at or after it. */
export function latestCreated(messages: readonly Ordered[]): string | undefined {
  return messages.length ? messages[messages.length - 1].created : undefined;
}
