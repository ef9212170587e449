import { isMuted, mutedText } from "~/features/notify-rules/mute";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";

const icon = {
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true,
};

export function BellIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...icon} width={size} height={size}>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
      <path d="M10 21a2 2 0 0 0 4 0" />
    </svg>
  );
}

export function BellOffIcon({ size = 18 }: { size?: number }) {
  return (
    <svg {...icon} width={size} height={size}>
      <path d="M6 16V11a6 6 0 0 1 9.5-4.9M18 11v5l2 2H4" />
      <path d="M10 21a2 2 0 0 0 4 0" />
      <path d="M3 3l18 18" />
    </svg>
  );
}

/** The sidebar's mark on a muted conversation, named "Muted" for assistive technology (until when, as its tooltip). */
export function MutedMark({ conversationId }: { conversationId: string }) {
  const rule = useNotifyRules().rules.conversations[conversationId];
  const now = Date.now();
  if (!rule?.mutedUntil || !isMuted(rule, now)) return null;
  return (
    <span className="muted-mark" role="img" aria-label="Muted" title={mutedText(rule.mutedUntil, new Date(now))}>
      <BellOffIcon size={14} />
    </span>
  );
}
