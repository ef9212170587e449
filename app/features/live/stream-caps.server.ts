/**
 * How many live streams (/api/events) one session and one account may hold open in a web process
 * (docs/decisions/0068-caps-per-account.md). A browser holds one per open tab; 5,000 were once opened
 * from one session. A new stream beyond a cap closes the oldest of that session (or account), so the
 * newest tabs keep working and nothing is refused.
 */
export const MAX_STREAMS_PER_SESSION = 20;
export const MAX_STREAMS_PER_ACCOUNT = 40;

/**
 * The streams to close now that the last of `streams` (one account's, oldest first; a session is named by its token's hash) was opened: the
 * oldest of its session beyond MAX_STREAMS_PER_SESSION, then the oldest of the account beyond
 * MAX_STREAMS_PER_ACCOUNT. Never the newest.
 */
export function streamsBeyondCaps<S extends { readonly tokenHash: string }>(streams: readonly S[]): S[] {
  const newest = streams[streams.length - 1];
  if (!newest) return [];
  const closing = new Set<S>();
  const session = streams.filter((sink) => sink.tokenHash === newest.tokenHash);
  for (const sink of session.slice(0, Math.max(0, session.length - MAX_STREAMS_PER_SESSION))) closing.add(sink);
  const staying = streams.filter((sink) => !closing.has(sink));
  for (const sink of staying.slice(0, Math.max(0, staying.length - MAX_STREAMS_PER_ACCOUNT))) closing.add(sink);
  return [...closing];
}
