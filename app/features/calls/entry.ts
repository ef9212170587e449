/**
 * The entry a call leaves in its conversation ("Call, 12 min, 3 people"): an ordinary message, sealed
 * like any other (docs/decisions/0032-call-entries-and-ringing.md), so the server never reads it.
 */

/** "Call, N min, N people": whole minutes (a call under a minute is "0 min"), "1 person" for one. */
export function callEntryText(durationMs: number, people: number): string {
  const minutes = Math.max(0, Math.floor(durationMs / 60_000));
  return `Call, ${minutes} min, ${people === 1 ? "1 person" : `${people} people`}`;
}

/**
 * The message id (a UUID) of a call's entry, the same on every member's page: from the call server's
 * id of the call. The server stores one message per conversation and id, so a call has one entry
 * even when two pages each post it.
 */
export async function callEntryId(callId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`chatcrypt call entry:${callId}`)));
  digest[6] = (digest[6] & 0x0f) | 0x80; // version 8 (a custom UUID)
  digest[8] = (digest[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
