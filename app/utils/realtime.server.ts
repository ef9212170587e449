import { EventSource } from "eventsource";

// The PocketBase SDK opens realtime connections with the global EventSource, which Node 20 lacks.
export function ensureEventSource() {
  const g = globalThis as { EventSource?: unknown };
  if (!g.EventSource) g.EventSource = EventSource;
}
