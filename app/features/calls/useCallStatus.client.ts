import { useEffect, useState } from "react";
import { callStatus } from "./calls.client";
import type { CallStatus } from "./types";

/** How often an open conversation asks whether a call is going on in it (ADR 30: polling, kept simple). */
export const CALL_STATUS_INTERVAL_MS = 4_000;

/** Whether a call is going on in the open conversation, asked every few seconds while `watch` is true. */
export function useCallStatus(conversationId: string, watch: boolean): CallStatus | null {
  const [status, setStatus] = useState<CallStatus | null>(null);
  useEffect(() => {
    setStatus(null);
    if (!watch) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const next = await callStatus(conversationId);
        if (!stopped) setStatus(next);
        if (!next.enabled) return;
      } catch {
        // asked again below
      }
      if (!stopped) timer = setTimeout(() => void ask(), CALL_STATUS_INTERVAL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [conversationId, watch]);
  return status;
}
