/**
 * The page's copy of the files people can send (GET /api/files/policy): read when a conversation opens
 * (at most every REFRESH_MS) and again before a file is refused, so an administrator's change applies
 * without a reload.
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { api } from "~/lib/api.client";
import { MIB, type FilePolicy } from "~/features/files/policy";
import { emit, on } from "~/lib/events";

const REFRESH_MS = 60_000;

let policy: FilePolicy | null = null;
let readAt = 0;
let reading: Promise<FilePolicy | null> | null = null;

/** Reads the policy again unless it was read within REFRESH_MS (`force`: at once); answers it (null when never read). */
export function refreshFilePolicy(force = false): Promise<FilePolicy | null> {
  if (reading) return reading;
  if (!force && policy && Date.now() - readAt < REFRESH_MS) return Promise.resolve(policy);
  reading = api<FilePolicy>("/api/files/policy")
    .then((answer) => {
      policy = answer;
      readAt = Date.now();
      emit("file-policy:read");
      return answer;
    })
    .catch((error: unknown) => {
      console.warn("The file settings could not be read", error);
      return policy;
    })
    .finally(() => {
      reading = null;
    });
  return reading;
}

const subscribe = (notify: () => void) => on("file-policy:read", notify);

/** The policy as last read (the specification's list and the server's cap until read), read again when another conversation opens. */
export function useFilePolicy(channelId: string | undefined, capBytes: number): FilePolicy {
  const fallback = useMemo((): FilePolicy => {
    const capMb = Math.round(capBytes / MIB);
    return { types: "standard", maxMb: capMb, capMb };
  }, [capBytes]);
  useEffect(() => void refreshFilePolicy(), [channelId]);
  return useSyncExternalStore(
    subscribe,
    () => policy ?? fallback,
    () => fallback,
  );
}
