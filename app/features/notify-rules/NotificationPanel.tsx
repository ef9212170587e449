import { useEffect, useId, useRef, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { Channel } from "~/conversation/channels/types";
import { defaultLevel, type ConversationRule, type NotifyLevel } from "~/features/notify-rules/rules";
import { MUTE_CHOICES, muteEnd } from "~/features/notify-rules/mute";
import { setConversationRule } from "~/features/notify-rules/rules.client";

const LEVELS: { level: NotifyLevel; label: string }[] = [
  { level: "all", label: "All messages" },
  { level: "mentions", label: "Mentions and keywords" },
  { level: "nothing", label: "Nothing" },
];

const SAVE_FAILED = "Your notification choices could not be saved. Please try again.";

interface Props {
  channel: Channel;
  rule: ConversationRule | undefined;
  /** How long the conversation is muted, in words, while it is. */
  muted: string | null;
}

/** The open "Notification choices" (NotificationChoices.tsx): focus goes to the level chosen. */
export function NotificationPanel({ channel, rule, muted }: Props) {
  const [error, setError] = useState<string | null>(null);
  const group = useId();
  const defaultId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const fallback = defaultLevel(Boolean(channel.direct));
  const level = rule?.level ?? fallback;

  useEffect(() => ref.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus(), []);

  const save = (update: Partial<ConversationRule>) => {
    setError(null);
    setConversationRule(channel.id, update).catch((failure) => setError(messageOf(failure, SAVE_FAILED)));
  };

  return (
    <div ref={ref} className="dropdown-panel notify-choices-panel" role="group" aria-label="Notification choices">
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
  );
}
