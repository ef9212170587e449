import { useEffect, useState } from "react";
import type { Channel } from "~/conversation/channels/types";
import { partnerGoneText, unreachableText, waitingText } from "~/conversation/mls/words";
import { askedText } from "~/conversation/mls/asked.client";

/**
 * A direct conversation whose only member is this user (ADR 0052: the others were asked and have not
 * accepted, or left): "Waiting for bob to accept your request" (a group: the people this device asked,
 * asked.client). What is written meanwhile waits in the outbox and is sent once someone has joined. The
 * same words whether the request waits or was declined. A one-to-one the other person left (`gone`: its
 * list is this user alone) says so instead: no request waits there.
 */
export function AwaitingAcceptance({
  channel,
  userId,
  memberIds,
  gone = false,
}: {
  channel: Channel;
  userId: string;
  memberIds: readonly string[];
  gone?: boolean;
}) {
  // (a one-to-one with someone deactivated or gone says so in place of its composer: ChatPane)
  const waiting = channel.direct && !unreachableText(channel) && memberIds.length > 0 && memberIds.every((id) => id === userId);
  const [asked, setAsked] = useState<string | null>(null);
  useEffect(() => {
    if (!waiting || channel.oneToOne) return;
    let live = true;
    void askedText(userId, channel.id).then((text) => live && setAsked(text));
    return () => {
      live = false;
    };
  }, [waiting, channel.oneToOne, channel.id, userId]);
  if (!waiting) return null;
  const names = channel.oneToOne ? channel.name : asked;
  if (names === null) return null;
  return (
    <p className="request-waiting" role="status">
      {channel.oneToOne && gone ? partnerGoneText(names) : waitingText(names)}
    </p>
  );
}
