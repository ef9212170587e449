import { useEffect, useState } from "react";
import { callRecords } from "./calls.client";
import { callEntryText } from "./entry";
import { onCallEnded } from "./ring.client";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";

export interface CallLine {
  id: string;
  text: string;
  created: string;
}

/**
 * The open conversation's calls as lines among its messages ("Call ended · 2 min", placed at the
 * call's end): read when the conversation has drawn its first page (the page goes first) and again
 * whenever a call of it ends.
 */
export function useCallRecords(conversationId: string, viewerId: string): CallLine[] {
  const [lines, setLines] = useState<CallLine[]>([]);
  useEffect(() => {
    setLines([]);
    let stopped = false;
    let round = 0;
    const read = async () => {
      const mine = ++round;
      try {
        const records = await callRecords(conversationId);
        if (stopped || mine !== round) return;
        const next = records.map((r) => ({ id: `call:${r.id}`, text: callEntryText(r, viewerId), created: r.ended })).reverse();
        // (none then and none now: the list is not drawn again)
        setLines((shown) => (shown.length === 0 && next.length === 0 ? shown : next));
      } catch (error) {
        console.warn("The conversation's calls could not be read", error);
      }
    };
    void afterConversationShown().then(() => (stopped || round > 0 ? undefined : read()));
    const stop = onCallEnded((channelId) => {
      if (channelId === conversationId && !stopped) void read();
    });
    return () => {
      stopped = true;
      stop();
    };
  }, [conversationId, viewerId]);
  return lines;
}

/** The lines to place among `shown` messages: none older than the first shown while older messages are still to load. */
export function callLinesAmong(lines: CallLine[], shown: { created: string }[], hasMore: boolean): CallLine[] {
  if (!hasMore || shown.length === 0) return lines;
  const at = (value: string) => Date.parse(value.replace(" ", "T"));
  const oldest = at(shown[0].created);
  return lines.filter((line) => at(line.created) >= oldest);
}
