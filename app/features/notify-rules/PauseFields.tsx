import { useState } from "react";
import { messageOf } from "~/lib/errors";
import { muteEnd, mutedText, type MuteChoice } from "~/features/notify-rules/mute";
import { setPause } from "~/features/notify-rules/rules.client";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";

const PAUSES: { choice: MuteChoice; label: string }[] = [
  { choice: "hour", label: "Pause notifications for 1 h" },
  { choice: "tomorrow", label: "Pause notifications until tomorrow" },
];

const SAVE_FAILED = "Your notification choices could not be saved. Please try again.";

/**
 * Beside Do not disturb: every notification (and every call's ring) paused for an hour or until
 * 08:00 tomorrow, saved at once with the other rules so a closed page's push pauses too.
 */
export function PauseFields() {
  const { rules } = useNotifyRules();
  const [error, setError] = useState<string | null>(null);
  const now = new Date();
  const paused = (rules.pausedUntil ?? 0) > now.getTime() ? rules.pausedUntil! : null;
  const save = (until: number | undefined) => {
    setError(null);
    setPause(until).catch((failure) => setError(messageOf(failure, SAVE_FAILED)));
  };
  return (
    <fieldset className="settings-group">
      <legend>Pause</legend>
      {paused !== null && (
        <p className="notify-muted" role="status">
          {mutedText(paused, now).replace(/^Muted/u, "Notifications paused")}
        </p>
      )}
      <div className="pause-choices">
        {paused !== null ? (
          <button type="button" className="btn btn-small" onClick={() => save(undefined)}>
            Resume notifications
          </button>
        ) : (
          PAUSES.map(({ choice, label }) => (
            <button key={choice} type="button" className="btn btn-small" onClick={() => save(muteEnd(choice, new Date()))}>
              {label}
            </button>
          ))
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
