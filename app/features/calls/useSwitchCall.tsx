import { useState, type ReactNode } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { ConfirmDialog } from "~/ui/Modal";
import { activeCall, startCall } from "./store.client";

/** A conversation as a call names it: "#Team", "@bob". */
export const callPlace = (channel: Channel) => `${channel.direct ? "@" : "#"}${channel.name}`;

/**
 * Starting or joining a call: at once when the page is in no other call; else it asks first, since a
 * page is in one call at a time and the other one is left ("Leave the call in #Team?").
 */
export function useSwitchCall(user: SessionUser): { start: (channel: Channel) => void; question: ReactNode } {
  const [pending, setPending] = useState<{ channel: Channel; from: Channel } | null>(null);
  const start = (channel: Channel) => {
    const current = activeCall();
    if (current && current.channel.id !== channel.id) setPending({ channel, from: current.channel });
    else startCall(user, channel);
  };
  const question = pending && (
    <ConfirmDialog
      title={`Leave the call in ${callPlace(pending.from)}?`}
      message={`You are in a call in ${callPlace(pending.from)}. Joining the call in ${callPlace(pending.channel)} leaves it.`}
      confirmLabel="Leave and join"
      onConfirm={() => {
        setPending(null);
        startCall(user, pending.channel);
      }}
      onClose={() => setPending(null)}
    />
  );
  return { start, question };
}
