import { useEffect, useRef, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { acceptKeys } from "~/conversation/senders/pins.client";
import type { KeyChange } from "~/conversation/senders/pin-state.client";
import { messageBox } from "~/ui/message-box";

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
  const focus = useFocusKept(changes);
  return (
    <div className="key-change-notices" ref={focus.box} onFocus={focus.onFocus} onBlur={focus.onBlur}>
      {changes.map((change) => (
        <div key={change.userId} className="key-change-notice" role="alert">
          {change.reason === "changed" ? (
            <>
              <p className="key-change-reset">
                <strong>{change.username} reset his account: compare his safety number</strong>
              </p>
              <p>
                <strong>{change.username}&apos;s security keys changed</strong>. What they sign with the new keys is held back until you
                accept them; their earlier messages stay, marked. Compare your safety number with them first.
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

/**
 * A notice accepted goes with its button: the focus, when it was in the notices, goes on to the next
 * notice's button, or to the message box once none is left (it fell to the page's body).
 */
function useFocusKept(changes: readonly KeyChange[]) {
  const box = useRef<HTMLDivElement>(null);
  const inside = useRef(false);
  const onFocus = () => void (inside.current = true);
  // (a button taken away blurs with nowhere to go: the focus stays ours to place)
  const onBlur = (event: { relatedTarget: EventTarget | null }) =>
    void (inside.current = !event.relatedTarget || Boolean(box.current?.contains(event.relatedTarget as Node)));
  useEffect(() => {
    const lost = () => inside.current && (document.activeElement === document.body || document.activeElement === null);
    const node = box.current;
    if (lost()) node?.querySelector<HTMLButtonElement>("button")?.focus();
    return () => {
      // (the last notice gone: the box itself is gone after this)
      requestAnimationFrame(() => {
        if (node?.isConnected || !lost()) return;
        inside.current = false;
        messageBox()?.focus();
      });
    };
  }, [changes]);
  return { box, onFocus, onBlur };
}
