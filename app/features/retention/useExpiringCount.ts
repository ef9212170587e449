import { useEffect, useState } from "react";
import { api } from "~/lib/api.client";

/**
 * What the console's "Keep messages for 30 days?" says of what goes: how many messages that period
 * deletes now, counted by the server (pb_hooks/retention.pb.js), while the question is open. Nothing
 * while it is not asked; the words while counting; nothing more when the count fails (the question
 * stands without it).
 */
export function useExpiringCount(days: number | null, keepPinned: boolean): string {
  const [said, setSaid] = useState("");
  useEffect(() => {
    if (days === null) return setSaid("");
    let current = true;
    setSaid("Counting the messages older than that...");
    api<{ messages: number }>("/api/admin/retention/preview", { days, keepPinned })
      .then(({ messages }) => current && setSaid(expiringText(messages)))
      .catch(() => current && setSaid(""));
    return () => void (current = false);
  }, [days, keepPinned]);
  return said;
}

/** "1,234 messages are older than that now." */
export function expiringText(messages: number): string {
  if (messages === 0) return "No message is older than that now.";
  if (messages === 1) return "1 message is older than that now.";
  return `${messages.toLocaleString("en-US")} messages are older than that now.`;
}
