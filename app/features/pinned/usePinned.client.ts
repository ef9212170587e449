import { useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { applyAnnotations, latestOf, type Annotation } from "~/conversation/messages/annotations";
import { type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import type { EncryptedMessage } from "~/conversation/messages/types";

export interface PinnedMessage {
  message: DecryptedMessage;
  pinnedBy: string;
  pinnedAt: string;
}

/**
 * The messages pinned now, each as its latest edit by its sender reads: for each message, its latest pin
 * event (verified and opened here) decides.
 */
export function pinnedNow(messages: readonly DecryptedMessage[], annotations: readonly Annotation[]): PinnedMessage[] {
  const byTarget = new Map<string, Annotation[]>();
  for (const a of annotations) if (a.kind === "pin") byTarget.set(a.targetId, [...(byTarget.get(a.targetId) ?? []), a]);
  return applyAnnotations(messages, new Map(annotations.map((a) => [a.id, a])))
    .flatMap((message) => {
      const latest = latestOf(byTarget.get(message.id) ?? []);
      return latest?.pinned ? [{ message, pinnedBy: latest.senderUsername ?? "someone", pinnedAt: latest.created }] : [];
    })
    .sort((a, b) => (a.pinnedAt < b.pinnedAt ? 1 : -1));
}

/**
 * The Pinned panel's list, read when the panel opens and again when a pin changes in the messages on
 * screen (`pins`: a key of what the open history shows pinned, and its text, which live pin events and
 * edits update).
 */
export function usePinned(user: SessionUser, channel: Channel, open: boolean, pins: string) {
  const [list, setList] = useState<PinnedMessage[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!open) return;
    let current = true;
    setFailed(false);
    api<{ messages: EncryptedMessage[] }>(`/api/channels/${channel.id}/pinned`)
      .then((found) => decryptRecords(user, channel, found.messages))
      .then(
        ({ messages, annotations }) => current && setList(pinnedNow(messages, annotations)),
        () => current && setFailed(true),
      );
    return () => void (current = false);
  }, [user, channel, open, pins]);
  useEffect(() => setList(null), [channel.id]);
  return { list, failed };
}
