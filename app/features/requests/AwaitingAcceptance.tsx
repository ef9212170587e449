import type { Channel } from "~/features/channels/types";
import { waitingText } from "~/features/requests/types";

/**
 * A direct conversation whose only member is this user (ADR 0052: the others were asked and have not
 * accepted, or left): "Waiting for bob to accept your request". What is written meanwhile waits in the
 * outbox and is sent once someone has joined. The same words whether the request waits or was declined.
 */
export function AwaitingAcceptance({ channel, userId, memberIds }: { channel: Channel; userId: string; memberIds: readonly string[] }) {
  if (!channel.direct || memberIds.length === 0 || memberIds.some((id) => id !== userId)) return null;
  return (
    <p className="request-waiting" role="status">
      {waitingText(channel.oneToOne ? channel.name : "the others")}
    </p>
  );
}
