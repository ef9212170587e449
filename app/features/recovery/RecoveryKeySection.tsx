import { useEffect, useState } from "react";
import { lazyPart } from "~/ui/lazyPart";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { recoveryKeyStatus } from "~/features/recovery/recovery.client";
import type { RecoveryKeyStatus } from "~/features/recovery/types";

const RecoveryKeyDialog = lazyPart(() => import("~/features/recovery/RecoveryKeyDialog").then((m) => m.default), { whenFailed: "toast" });

const date = (iso: string) => new Date(iso.replace(" ", "T")).toLocaleDateString(undefined, { dateStyle: "long" });

/** Account > "Recovery key": whether there is one, and "Create a recovery key" / "Replace the recovery key". */
export function RecoveryKeySection({ user }: { user: SessionUser }) {
  const [status, setStatus] = useState<RecoveryKeyStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    recoveryKeyStatus().then(setStatus, (err: unknown) =>
      setError(err instanceof ApiError ? err.message : "Your recovery key could not be looked up."),
    );
  }, []);

  const exists = Boolean(status?.created);
  return (
    <section className="account-section" aria-labelledby="account-recovery-key">
      <h3 id="account-recovery-key">Recovery key</h3>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : !status ? (
        <p className="hint" role="status">
          Checking your recovery key...
        </p>
      ) : exists ? (
        <p className="hint">Created on {date(status.created!)}. With it you can reset a forgotten password and keep everything.</p>
      ) : (
        <p className="hint">
          You have no recovery key. Without one, a forgotten password loses your channels&apos; saved passwords, your contacts, settings and
          the history of sealed channels and direct messages.
        </p>
      )}
      <button type="button" className="btn" onClick={() => setOpen(true)} disabled={!status && !error}>
        {exists ? "Replace the recovery key" : "Create a recovery key"}
      </button>
      {open && <RecoveryKeyDialog user={user} replacing={exists} onClose={() => setOpen(false)} onSaved={setStatus} />}
    </section>
  );
}
