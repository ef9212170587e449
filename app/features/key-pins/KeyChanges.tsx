import { useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { acceptKeys, type KeyChange } from "~/conversation/senders/pins.client";

interface Props {
  user: SessionUser;
  changes: KeyChange[];
  /** How many of the user's messages are held back in this conversation (ADR 0051). */
  heldOf: (userId: string) => number;
  onAccepted: () => void;
}

/** "1 message from bob is waiting for you to accept his new keys" (the words). */
const waiting = (n: number, username: string) =>
  n === 1
    ? `1 message from ${username} is waiting for you to accept his new keys`
    : `${n} messages from ${username} are waiting for you to accept his new keys`;

export const NOT_ACCEPTED = "The new keys could not be accepted. Check your connection and try again.";

/** The open channel's key changes (KeyChangeNotice.tsx), each with "Accept new keys". */
export function KeyChanges({ user, changes, heldOf, onAccepted }: Props) {
  const [busy, setBusy] = useState("");
  /** The person whose new keys could not be accepted (the notice says so; the button stays). */
  const [failed, setFailed] = useState("");
  return (
    <div className="key-change-notices">
      {changes.map((change) => (
        <div key={change.userId} className="key-change-notice" role="alert">
          {change.reason === "changed" ? (
            <>
              <p className="key-change-reset">
                <strong>{change.username} reset his account: compare his safety number</strong>
              </p>
              <p>
                <strong>{change.username}&apos;s security keys changed</strong>. Their messages are held back until you accept the new keys.
                Compare your safety number with them first.
              </p>
            </>
          ) : (
            <p>
              <strong>{change.username}&apos;s security keys could not be checked</strong>: the keys you saved for them are missing or were
              replaced on the server. Their messages are held back until you accept the keys presented now. Compare your safety number with
              them first.
            </p>
          )}
          {heldOf(change.userId) > 0 && <p className="key-change-held">{waiting(heldOf(change.userId), change.username)}</p>}
          {failed === change.userId && <p className="form-error">{NOT_ACCEPTED}</p>}
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Accept new keys of ${change.username}`}
            disabled={busy === change.userId}
            onClick={() => {
              setBusy(change.userId);
              setFailed("");
              acceptKeys(user.id, change)
                .then(onAccepted, (error) => {
                  console.warn("The new keys could not be accepted", error);
                  setFailed(change.userId);
                })
                .finally(() => setBusy(""));
            }}
          >
            Accept new keys
          </button>
        </div>
      ))}
    </div>
  );
}
