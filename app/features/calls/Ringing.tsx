import { useEffect } from "react";
import { LazyModal as Modal } from "~/ui/LazyModal";
import { declineRing, stopRinging, useRinging } from "./ring.client";
import { startCall, useActiveCall } from "./store.client";
import { callPlace } from "./useSwitchCall";
import { showDesktopNotification } from "~/features/notifications/notifications.client";

/** How long a call rings before it stops by itself (the call goes on; the bar still offers to join). */
export const RING_MS = 45_000;

/** "<name> is calling" with Join and Decline, for a direct call someone else started (Esc declines). */
export function Ringing() {
  const ring = useRinging();
  const current = useActiveCall();
  useEffect(() => {
    if (!ring) return;
    const timer = setTimeout(stopRinging, RING_MS);
    // a page in the background says so on the desktop too (the dialog alone went unseen); gone with the ring
    const away = document.hidden || !document.hasFocus();
    const shown = away
      ? showDesktopNotification(`${ring.name} is calling`, `A call in your direct conversation with ${ring.channel.name}.`, {
          tag: `call:${ring.channel.id}`,
          open: () => undefined,
        })
      : undefined;
    return () => {
      clearTimeout(timer);
      shown?.close();
    };
  }, [ring]);
  if (!ring) return null;
  const title = `${ring.name} is calling`;
  return (
    <Modal title={title} onClose={declineRing}>
      <p>A call in your direct conversation with {ring.channel.name}.</p>
      {current && current.channel.id !== ring.channel.id && <p>Joining leaves your call in {callPlace(current.channel)}.</p>}
      <div className="modal-actions ring-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            stopRinging();
            // (answering a ring joins at once, with the browser's default devices)
            startCall(ring.user, ring.channel, { check: false });
          }}
        >
          Join
        </button>
        <button type="button" className="btn" onClick={declineRing}>
          Decline
        </button>
      </div>
    </Modal>
  );
}
