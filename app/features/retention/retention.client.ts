/**
 * The page's copy of the retention policy (GET /api/retention): read when a conversation opens (at most
 * every REFRESH_MS), shown by the header, and handed to whoever drops expired messages from this
 * device (the search index, the history cache: prune.client.ts).
 */
import { useEffect, useSyncExternalStore } from "react";
import { api } from "~/lib/api.client";
import { FOREVER, type RetentionPolicy } from "~/features/retention/retention";
import { emit, on } from "~/lib/events";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";

const REFRESH_MS = 60_000;

let policy: RetentionPolicy | null = null;
let readAt = 0;
let reading: Promise<void> | null = null;

/** Reads the policy again unless it was read within REFRESH_MS (`force`: at once, after a read under way, which may predate a change). */
export function refreshRetention(force = false): Promise<void> {
  if (reading) return force ? reading.then(() => refreshRetention(true)) : reading;
  if (!force && policy && Date.now() - readAt < REFRESH_MS) return Promise.resolve();
  reading = api<RetentionPolicy>("/api/retention")
    .then((answer) => {
      policy = answer;
      readAt = Date.now();
      emit("retention:read", answer);
    })
    .catch((error: unknown) => console.warn("The retention policy could not be read", error))
    .finally(() => {
      reading = null;
    });
  return reading;
}

/** Calls `listener` with the policy now (when read) and whenever it is read again; returns the function that stops it. */
export function onRetention(listener: (policy: RetentionPolicy) => void): () => void {
  const stop = on("retention:read", listener);
  if (policy) listener(policy);
  return stop;
}

const subscribe = (notify: () => void) => on("retention:read", () => notify());

/** The policy as last read (forever until read), read again when another conversation opens (once its first page is drawn). */
export function useRetentionPolicy(channelId: string): RetentionPolicy {
  useEffect(() => {
    let stopped = false;
    void afterConversationShown().then(() => (stopped ? undefined : refreshRetention()));
    return () => {
      stopped = true;
    };
  }, [channelId]);
  return useSyncExternalStore(
    subscribe,
    () => policy ?? FOREVER,
    () => FOREVER,
  );
}

/** The days that apply to the conversation (0: kept forever). */
export const useRetentionDays = (channelId: string): number => useRetentionPolicy(channelId).channels[channelId] ?? 0;

/** The days that apply to the conversation as last read (0: forever), or null when the policy was never read. */
export const retentionDaysOf = (channelId: string): number | null => (policy ? (policy.channels[channelId] ?? 0) : null);

/** Sign-out: the next user reads their own. */
export function forgetRetention() {
  policy = null;
  readAt = 0;
}
