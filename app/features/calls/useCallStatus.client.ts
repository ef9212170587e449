import { useEffect, useState } from "react";
import { callStatus } from "./calls.client";
import { onCallEvent } from "./ring.client";
import type { CallStatus } from "./types";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";

/**
 * How often an open conversation asks whether a call is going on in it besides the live events
 * (ADR 32): for a page that vanished without saying it left, which the call server drops by itself.
 */
export const CALL_STATUS_INTERVAL_MS = 30_000;

/** Whether a call is going on in the open conversation: asked on every call event for it, and now and then, while `watch` is true. */
export function useCallStatus(conversationId: string, watch: boolean): CallStatus | null {
  const [status, setStatus] = useState<CallStatus | null>(null);
  useEffect(() => {
    setStatus(null);
    if (!watch) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // the latest question only: an answer overtaken by a newer question is dropped
    let round = 0;
    const ask = async () => {
      const mine = ++round;
      clearTimeout(timer);
      let enabled = true;
      try {
        const next = await callStatus(conversationId);
        if (stopped || mine !== round) return;
        setStatus(next);
        enabled = next.enabled;
      } catch {
        // asked again below
      }
      if (!stopped && enabled && mine === round) timer = setTimeout(() => void ask(), CALL_STATUS_INTERVAL_MS);
    };
    // (first once the conversation's first page is drawn: the page goes first)
    void afterConversationShown().then(() => (stopped || round > 0 ? undefined : ask()));
    const stopListening = onCallEvent((channelId) => {
      if (channelId === conversationId && !stopped) void ask();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stopListening();
    };
  }, [conversationId, watch]);
  return status;
}
