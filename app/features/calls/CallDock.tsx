import { lazyPart, PartFailedNotice } from "~/ui/lazyPart";
import { callEnded, endCall, useShownCall } from "./store.client";
import { Ringing } from "./Ringing";

// LiveKit, the frame encryption and the call window load only when the user starts or joins a call.
const CallPanel = lazyPart(() => import("./CallPanel").then((m) => m.default), {
  fallback: (
    <section className="call-panel" aria-label="Call">
      <p role="status">Starting the call…</p>
    </section>
  ),
  whenFailed: ({ onLeave }, retry) => (
    <section className="call-panel" aria-label="Call">
      <PartFailedNotice retry={retry}>
        <button type="button" className="btn btn-small btn-danger" onClick={onLeave}>
          Leave call
        </button>
      </PartFailedNotice>
    </section>
  ),
});

/** Where the page's call is shown, whichever conversation is open (a window of its own; full width on a phone), and a direct call's ring. */
export function CallDock() {
  const active = useShownCall();
  // (a ring comes through in a call too: answering it leaves that call, and says so first)
  return (
    <>
      {active && (
        <CallPanel
          key={active.started}
          user={active.user}
          channel={active.channel}
          check={active.check}
          onLeave={endCall}
          onEnded={() => callEnded(active.started)}
        />
      )}
      <Ringing />
    </>
  );
}
