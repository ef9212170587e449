import type { PendingMessage } from "~/features/messages/useSend.client";
import { firstLine } from "~/features/messages/text";

/** Messages waiting to be sent: what went wrong, and Retry or Discard for each. */
export function Outbox({
  pending,
  onRetry,
  onDiscard,
}: {
  pending: PendingMessage[];
  onRetry: () => void;
  onDiscard: (clientId: string) => void;
}) {
  if (pending.length === 0) return null;
  return (
    <ul className="outbox" aria-label="Messages not sent yet">
      {pending.map((p) => (
        <li key={p.clientId} className="outbox-item" role="status">
          <span className="outbox-text">{firstLine(p.text, 80)}</span>
          <span className="outbox-state">{p.held ? p.error : `Not sent, retrying${p.error ? `: ${p.error}` : ""}`}</span>
          <button type="button" className="btn btn-small" onClick={onRetry}>
            Retry
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Discard "${firstLine(p.text, 40)}"`}
            onClick={() => onDiscard(p.clientId)}
          >
            Discard
          </button>
        </li>
      ))}
    </ul>
  );
}
