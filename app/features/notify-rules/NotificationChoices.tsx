import { useEffect, useId, useState } from "react";
import { useDropdown } from "~/ui/useDropdown";
import { messageOf } from "~/lib/errors";
import type { Channel } from "~/features/channels/types";
import { defaultLevel, type ConversationRule, type NotifyLevel } from "~/features/notify-rules/rules";
import { isMuted, MUTE_CHOICES, muteEnd, mutedText } from "~/features/notify-rules/mute";
import { setConversationRule } from "~/features/notify-rules/rules.client";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";
import { BellIcon, BellOffIcon } from "~/ui/icons";

const LEVELS: { level: NotifyLevel; label: string }[] = [
  { level: "all", label: "All messages" },
  { level: "mentions", label: "Mentions and keywords" },
  { level: "nothing", label: "Nothing" },
];

const SAVE_FAILED = "Your notification choices could not be saved. Please try again.";

/**
 * The conversation header's "Notification choices": what notifies in this conversation (all messages,
 * mentions and keywords, nothing; the default marked) and its mute. Each choice is saved at once.
 */
export function NotificationChoices({ channel }: { channel: Channel }) {
  const { open, setOpen, ref } = useDropdown();
  const { rules } = useNotifyRules();
  const [error, setError] = useState<string | null>(null);
  const group = useId();
  const defaultId = useId();
  const rule = rules.conversations[channel.id];
  const fallback = defaultLevel(Boolean(channel.direct));
  const level = rule?.level ?? fallback;
  const now = new Date();
  const muted = isMuted(rule, now.getTime()) && rule?.mutedUntil ? mutedText(rule.mutedUntil, now) : null;

  useEffect(() => setOpen(false), [channel.id, setOpen]);
  useEffect(() => {
    setError(null);
    if (open) ref.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
  }, [open, ref]);

  const save = (update: Partial<ConversationRule>) => {
    setError(null);
    setConversationRule(channel.id, update).catch((failure) => setError(messageOf(failure, SAVE_FAILED)));
  };

  return (
    <div className="dropdown notify-choices" ref={ref}>
      <button
        type="button"
        className={`btn btn-small notify-choices-button${muted ? " muted" : ""}`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-label="Notification choices"
        title={muted ?? "Notification choices"}
        onClick={() => setOpen((o) => !o)}
      >
        {muted ? <BellOffIcon size={16} /> : <BellIcon size={16} />}
      </button>
      {open && (
        <div className="dropdown-panel notify-choices-panel" role="group" aria-label="Notification choices">
          <fieldset className="notify-levels">
            <legend>Notify me about</legend>
            {LEVELS.map((choice) => (
              <div key={choice.level} className="notify-level">
                <label className="check">
                  <input
                    type="radio"
                    name={group}
                    checked={level === choice.level}
                    aria-describedby={choice.level === fallback ? defaultId : undefined}
                    onChange={() => save({ level: choice.level })}
                  />
                  {choice.label}
                </label>
                {choice.level === fallback && (
                  <span id={defaultId} className="hint">
                    (default)
                  </span>
                )}
              </div>
            ))}
          </fieldset>
          <div className="notify-mutes" role="group" aria-label="Mute">
            {muted && (
              <p className="notify-muted" role="status">
                {muted}
              </p>
            )}
            {muted && (
              <button type="button" className="btn btn-small" onClick={() => save({ mutedUntil: undefined })}>
                Unmute
              </button>
            )}
            {MUTE_CHOICES.map(({ choice, label }) => (
              <button key={choice} type="button" className="menu-item" onClick={() => save({ mutedUntil: muteEnd(choice, new Date()) })}>
                {label}
              </button>
            ))}
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
