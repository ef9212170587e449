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
  if (requests.length === 0 && !error) return null;
  return (
    <div className="direct-requests">
      <ul className="request-list" aria-label="Message requests">
        {requests.map((request) => {
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
                    onClick={() => onAnswer(request, answer)}
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
