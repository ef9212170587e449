import { useEffect, useRef } from "react";

export const WITHOUT_RECOVERY_KEY =
  "Without a recovery key, a forgotten password means losing your encrypted messages: ChatCrypt could not open your channels' saved passwords, your contacts, settings or the history of sealed channels and direct messages.";

/**
 * What "Not now" on the offered recovery key loses, asked before the dialog closes: going back keeps
 * the same words; continuing closes without storing anything.
 */
export function SkipRecoveryKey({ onBack, onSkip }: { onBack: () => void; onSkip: () => void }) {
  const back = useRef<HTMLButtonElement>(null);
  // The safe choice takes focus.
  useEffect(() => back.current?.focus(), []);
  return (
    <>
      <p className="reset-loss">{WITHOUT_RECOVERY_KEY}</p>
      <p>You can make one later in Account, under Recovery key.</p>
      <div className="modal-actions">
        <button ref={back} type="button" className="btn btn-primary" onClick={onBack}>
          Back to the recovery key
        </button>
        <button type="button" className="btn btn-danger" onClick={onSkip}>
          Continue without it
        </button>
      </div>
    </>
  );
}
