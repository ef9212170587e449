import type { SealedStatus } from "~/features/sealed/types";

interface Props {
  status: SealedStatus | null;
  busy: boolean;
  onUpdateKeys: () => void;
  /** A direct conversation: never called a channel (ADR 0050). */
  direct?: boolean;
}

/**
 * The members panel's part for a sealed channel or a direct conversation: the code members compare
 * (the MLS epoch authenticator: the same for everyone who shares the current keys) and "Update keys".
 */
export function SealedSection({ status, busy, onUpdateKeys, direct = false }: Props) {
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
    </section>
  );
}
