import { isMuted, mutedText } from "~/features/notify-rules/mute";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";
import { BellOffIcon } from "~/ui/icons";

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
