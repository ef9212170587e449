import { useEffect, useRef } from "react";
import { FormError } from "~/ui/Form";
import { requestText, type DirectRequest, type RequestAnswer } from "~/features/requests/types";

interface Props {
  requests: DirectRequest[];
  busy: string | null;
  error: string | null;
  onAnswer: (request: DirectRequest, answer: RequestAnswer) => void;
}

/**
 * The sidebar's requests (ADR 0052): "alice wants to message you" with Accept, Decline and Block.
 * Nothing of the conversation is shown: not its name, its people or its messages.
 */
export function RequestsList({ requests, busy, error, onAnswer }: Props) {
  const list = useRef<HTMLDivElement>(null);
  const answered = useRef<{ channelId: string; at: number; answer: RequestAnswer } | null>(null);
  // The buttons are disabled while an answer is sent and the request then goes: focus moves to the next
  // request (or the one before), else to the section's "New message"; an accepted one opens its conversation.
  useEffect(() => {
    const was = answered.current;
    if (!was || busy !== null) return;
    answered.current = null;
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    const items = [...(list.current?.querySelectorAll<HTMLElement>(".request-item") ?? [])];
    const still = requests.findIndex((r) => r.channelId === was.channelId);
    if (still >= 0) return items[still]?.querySelector<HTMLButtonElement>(`[data-answer="${was.answer}"]`)?.focus();
    if (was.answer === "accept") return;
    const next = items[Math.min(was.at, items.length - 1)];
    (
      next?.querySelector<HTMLButtonElement>("button") ?? document.querySelector<HTMLButtonElement>(".direct-section .sidebar-head button")
    )?.focus();
  }, [requests, busy]);
  if (requests.length === 0 && !error) return null;
  return (
    <div className="direct-requests" ref={list}>
      <ul className="request-list" aria-label="Message requests">
        {requests.map((request, at) => {
          const text = requestText(request.requester.username);
          const id = `request-${request.channelId}`;
          return (
            <li key={request.channelId} className="request-item" role="group" aria-labelledby={id}>
              <p id={id} className="request-text">
                {text}
              </p>
              <div className="request-actions">
                {(["accept", "decline", "block"] as const).map((answer) => (
                  <button
                    key={answer}
                    type="button"
                    className={answer === "accept" ? "btn btn-small btn-primary" : "btn btn-small"}
                    disabled={busy !== null}
                    aria-describedby={id}
                    data-answer={answer}
                    onClick={() => {
                      answered.current = { channelId: request.channelId, at, answer };
                      onAnswer(request, answer);
                    }}
                  >
                    {answer === "accept" ? "Accept" : answer === "decline" ? "Decline" : "Block"}
                  </button>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
      <FormError message={error} />
    </div>
  );
}
