import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { useActiveCall } from "./store.client";
import { useSwitchCall } from "./useSwitchCall";
import { useCallStatus } from "./useCallStatus.client";

/** "Call in progress — Join call" for a member of a conversation whose call they are not in. */
export function CallBar({ user, channel }: { user: SessionUser; channel: Channel }) {
  const active = useActiveCall();
  const inThisCall = active?.channel.id === channel.id;
  const status = useCallStatus(channel.id, !inThisCall);
  const { start, question } = useSwitchCall(user);
  if (inThisCall || !status?.enabled || status.participants === 0) return null;
  const people = status.participants === 1 ? "1 person" : `${status.participants} people`;
  return (
    <div className="call-bar" role="region" aria-label="Call in progress">
      <span>
        Call in progress — {people} in it{status.withViewer ? ", you among them on another device" : ""}
      </span>
      <button type="button" className="btn btn-small btn-primary" onClick={() => start(channel)}>
        Join call
      </button>
      {question}
    </div>
  );
}
