import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { useActiveCall } from "./store.client";
import { useSwitchCall } from "./useSwitchCall";

/** The conversation header's "Start call" (the call itself loads only once it is pressed). */
export function CallButton({ user, channel }: { user: SessionUser; channel: Channel }) {
  const active = useActiveCall();
  const here = active?.channel.id === channel.id;
  const { start, question } = useSwitchCall(user);
  // (aria-disabled, not disabled: a disabled button drops the keyboard's focus as the call opens)
  return (
    <>
      <button
        type="button"
        className="btn btn-small call-start"
        aria-pressed={here}
        aria-disabled={here}
        onClick={() => {
          if (!here) start(channel);
        }}
      >
        {here ? "In call" : "Start call"}
      </button>
      {question}
    </>
  );
}
