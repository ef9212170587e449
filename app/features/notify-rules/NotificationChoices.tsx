import { useEffect } from "react";
import { useDropdown } from "~/ui/useDropdown";
import { lazyPart } from "~/ui/lazyPart";
import type { Channel } from "~/conversation/channels/types";
import { isMuted, mutedText } from "~/features/notify-rules/mute";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";
import { BellIcon, BellOffIcon } from "~/ui/icons";

// The choices themselves load when the button is first pointed at, focused or pressed.
const Panel = lazyPart(() => import("~/features/notify-rules/NotificationPanel").then((m) => m.NotificationPanel));

/**
 * The conversation header's "Notifications" (spec §2.7), a bell opening "Notification choices": what notifies in this conversation (all messages,
 * mentions and keywords, nothing; the default marked) and its mute. Each choice is saved at once.
 */
export function NotificationChoices({ channel }: { channel: Channel }) {
  const { open, setOpen, ref } = useDropdown();
  const { rules } = useNotifyRules();
  const rule = rules.conversations[channel.id];
  const now = new Date();
  const muted = isMuted(rule, now.getTime()) && rule?.mutedUntil ? mutedText(rule.mutedUntil, now) : null;

  useEffect(() => setOpen(false), [channel.id, setOpen]);

  return (
    <div className="dropdown notify-choices" ref={ref}>
      <button
        type="button"
        className={`btn btn-small notify-choices-button${muted ? " muted" : ""}`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-label="Notifications"
        title={muted ?? "Notifications for this conversation"}
        onPointerEnter={() => void Panel.preload()}
        onFocus={() => void Panel.preload()}
        onClick={() => setOpen((o) => !o)}
      >
        {muted ? <BellOffIcon size={16} /> : <BellIcon size={16} />}
      </button>
      {open && <Panel channel={channel} rule={rule} muted={muted} />}
    </div>
  );
}
