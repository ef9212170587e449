import { useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import { acceptKeys, type KeyChange } from "~/features/pins/pins.client";

interface Props {
  user: SessionUser;
  changes: KeyChange[];
  onAccepted: () => void;
}

/** The open channel's key changes (KeyChangeNotice.tsx), each with "Accept new keys". */
export function KeyChanges({ user, changes, onAccepted }: Props) {
  const [busy, setBusy] = useState("");
  return (
    <div className="key-change-notices">
      {changes.map((change) => (
        <div key={change.userId} className="key-change-notice" role="alert">
          {change.reason === "changed" ? (
            <p>
              <strong>{change.username}&apos;s security keys changed</strong>. Their messages are held back until you accept the new keys.
              Compare your safety number with them first.
            </p>
          ) : (
            <p>
              <strong>{change.username}&apos;s security keys could not be checked</strong>: the keys you saved for them are missing or were
              replaced on the server. Their messages are held back until you accept the keys presented now. Compare your safety number with
              them first.
            </p>
          )}
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Accept new keys of ${change.username}`}
            disabled={busy === change.userId}
            onClick={() => {
              setBusy(change.userId);
              acceptKeys(user.id, change)
                .then(onAccepted, (error) => console.warn("The new keys could not be accepted", error))
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
