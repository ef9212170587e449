import { useEffect, useState } from "react";
import { api } from "~/lib/api.client";

/**
 * What "Keep messages for 30 days?" says of what goes: how many messages that period deletes now,
 * counted by the server (pb_hooks/retention.pb.js), while the question is open: the workspace's
 * period (the console, with its "keep pinned" choice) or a channel's own (`channelId`). Nothing while
 * it is not asked; the words while counting; nothing more when the count fails (the question stands
 * without it).
 */
export function useExpiringCount(days: number | null, of: { keepPinned: boolean } | { channelId: string }): string {
  const [said, setSaid] = useState("");
  const keepPinned = "keepPinned" in of ? of.keepPinned : undefined;
  const channelId = "channelId" in of ? of.channelId : undefined;
  useEffect(() => {
    if (days === null) return setSaid("");
    let current = true;
    setSaid("Counting the messages older than that...");
    const asked =
      channelId === undefined
        ? api<{ messages: number }>("/api/admin/retention/preview", { days, keepPinned })
        : api<{ messages: number }>(`/api/channels/${encodeURIComponent(channelId)}/retention/preview`, { days });
    asked.then(({ messages }) => current && setSaid(expiringText(messages))).catch(() => current && setSaid(""));
    return () => void (current = false);
  }, [days, keepPinned, channelId]);
  return said;
}

/** "1,234 messages are older than that now." */
export function expiringText(messages: number): string {
  if (messages === 0) return "No message is older than that now.";
  if (messages === 1) return "1 message is older than that now.";
  return `${messages.toLocaleString("en-US")} messages are older than that now.`;
}
