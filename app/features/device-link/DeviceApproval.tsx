import { FormError } from "~/ui/Form";
import { useEffect, useRef, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { Modal } from "~/ui/Modal";
import { onDeviceLinksChanged } from "~/features/device-link/changes.client";
import { approveRequest, denyRequest, nextRequest, releaseRequest, type Answering } from "~/features/device-link/approve.client";
import { APPROVE_ONLY_IF, APPROVE_TITLE } from "~/features/device-link/texts";

/**
 * On every page of a signed-in account: a new device asking to be approved shows, live, as "Approve a
 * new device?" with its browser and system and the code both devices show (ADR 0059).
 */
export default function DeviceApproval({ user }: { user: SessionUser }) {
  const [answering, setAnswering] = useState<Answering | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // requests dismissed on this page (Esc) are not shown again here; the page lets them go, for the
  // account's other devices (and this one after a reload) to take
  const dismissed = useRef(new Set<string>());

  useEffect(() => {
    let alive = true;
    let running: Promise<void> = Promise.resolve();
    const refresh = () => {
      running = running.then(async () => {
        try {
          const next = await nextRequest(user.id, dismissed.current);
          if (!alive) return;
          setAnswering((current) => (current && next && current.link.id === next.link.id ? current : next));
        } catch (failure) {
          console.warn("New device requests could not be read", failure);
        }
      });
    };
    refresh();
    const stop = onDeviceLinksChanged(refresh);
    return () => {
      alive = false;
      stop();
    };
  }, [user.id]);

  useEffect(() => setError(null), [answering?.link.id]);

  // A request nobody answered goes when it expires (nothing else tells the page).
  const expires = answering?.link.expires;
  useEffect(() => {
    if (!expires) return;
    const left = new Date(expires.replace(" ", "T")).getTime() - Date.now();
    const timer = setTimeout(() => setAnswering(null), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [expires]);

  if (!answering) return null;

  async function answer(approve: boolean) {
    if (!answering || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (approve) await approveRequest(user.id, answering);
      else await denyRequest(answering);
      setAnswering(null);
    } catch (failure) {
      setError(messageOf(failure, "The request could not be answered. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={APPROVE_TITLE}
      onClose={() => {
        dismissed.current.add(answering.link.id);
        setAnswering(null);
        releaseRequest(answering).catch((failure: unknown) => console.warn("The new device's request could not be let go", failure));
      }}
    >
      <p>
        A new device wants your encryption keys: <strong>{answering.link.agent}</strong>
      </p>
      <output className="link-code" aria-label="Code">
        {answering.code}
      </output>
      <p className="hint">{APPROVE_ONLY_IF}</p>
      <FormError message={error} />
      <div className="modal-actions">
        <button type="button" className="btn" onClick={() => void answer(false)} disabled={busy}>
          Deny
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void answer(true)} disabled={busy}>
          {busy ? "Processing..." : "Approve"}
        </button>
      </div>
    </Modal>
  );
}
