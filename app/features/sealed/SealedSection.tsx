import { useState } from "react";
import { createPortal } from "react-dom";
import { FormActions } from "~/ui/Form";
import { LazyModal } from "~/ui/LazyModal";
import type { SealedStatus } from "~/conversation/mls/types";

interface Props {
  status: SealedStatus | null;
  busy: boolean;
  onUpdateKeys: () => void;
  canReset: boolean;
  resetting: boolean;
  resetEncryption: () => Promise<boolean>;
  /** A direct conversation: never called a channel (ADR 0050). */
  direct?: boolean;
}

/**
 * The members panel's part for a sealed channel or a direct conversation: the code members compare
 * (the MLS epoch authenticator: the same for everyone who shares the current keys), "Update keys", and
 * for the conversation's creator "Reset encryption for this conversation" (ADR 0049), after a
 * confirmation.
 */
export function SealedSection({ status, busy, onUpdateKeys, canReset, resetting, resetEncryption, direct = false }: Props) {
  const [confirming, setConfirming] = useState(false);
  const title = direct ? "Conversation security" : "Sealed channel";
  return (
    <section className="sealed-section" aria-label={title}>
      <h3>{title}</h3>
      {status?.code ? (
        <p>
          Security code: <code className="sealed-code">{status.code}</code>
        </p>
      ) : (
        <p>{direct ? "Opening the conversation…" : "Opening the sealed channel…"}</p>
      )}
      <p className="hint">
        Everyone who sees the same code shares this {direct ? "conversation" : "channel"}&apos;s current keys. Compare it in person or on a
        call.
      </p>
      <button type="button" className="btn btn-small" onClick={onUpdateKeys} disabled={busy || !status?.code}>
        {busy ? "Updating keys…" : "Update keys"}
      </button>
      {canReset && (
        <button type="button" className="btn btn-small btn-danger" onClick={() => setConfirming(true)} disabled={resetting}>
          {resetting ? "Resetting encryption…" : "Reset encryption for this conversation"}
        </button>
      )}
      {/* Outside the members panel, whose Esc would close it too: Esc closes the dialog only. */}
      {confirming &&
        createPortal(
          <LazyModal title="Reset encryption for this conversation" onClose={() => !resetting && setConfirming(false)}>
            <p>
              Everyone in this conversation moves to new keys. What each device has read stays readable there; messages a device has not
              read yet will not be readable on it.
            </p>
            <FormActions
              busy={resetting}
              submitLabel="Reset encryption"
              danger
              onCancel={() => setConfirming(false)}
              onConfirm={() => void resetEncryption().then((done) => done && setConfirming(false))}
            />
          </LazyModal>,
          document.body,
        )}
    </section>
  );
}
