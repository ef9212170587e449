import { keptFor } from "~/features/retention/retention";
import { useRetentionDays } from "~/features/retention/retention.client";

/** The header's "Messages are kept for 90 days" (nothing when messages are kept forever). */
export function RetentionNote({ channelId }: { channelId: string }) {
  const text = keptFor(useRetentionDays(channelId));
  if (!text) return null;
  return <span className="retention-note">{text}</span>;
}
