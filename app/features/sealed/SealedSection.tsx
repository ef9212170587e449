import type { SealedStatus } from "~/features/sealed/types";

/**
 * The members panel's part for a sealed channel: the code members compare (the MLS epoch
 * authenticator: the same for everyone who shares the channel's current keys) and "Update keys".
 */
export function SealedSection({ status, busy, onUpdateKeys }: { status: SealedStatus | null; busy: boolean; onUpdateKeys: () => void }) {
  return (
    <section className="sealed-section" aria-label="Sealed channel">
      <h3>Sealed channel</h3>
      {status?.code ? (
        <p>
          Security code: <code className="sealed-code">{status.code}</code>
        </p>
      ) : (
        <p>Opening the sealed channel…</p>
      )}
      <p className="hint">Everyone who sees the same code shares this channel&apos;s current keys. Compare it in person or on a call.</p>
      <button type="button" className="btn btn-small" onClick={onUpdateKeys} disabled={busy || !status?.code}>
        {busy ? "Updating keys…" : "Update keys"}
      </button>
    </section>
  );
}
