import { useEffect, useState } from "react";
import { setCsrfToken } from "~/lib/api.client";
import { loadLocalKeys } from "~/lib/storage.client";
import type { SsoOutcome } from "~/features/sso/sso.server";
import { SsoSetup } from "~/features/sso/SsoSetup";
import { SsoUnlock } from "~/features/sso/SsoUnlock";
import { SsoLink } from "~/features/sso/SsoLink";
import { addressAfterSignIn } from "~/features/address/return.client";

// (at the address the sign-in started from, when it named a conversation)
const openWorkspace = () => window.location.replace(addressAfterSignIn());

/**
 * Where the identity provider sends the browser back: a first sign-in sets up encryption (or, when a
 * password account has the email, links it with its password); a later one
 * opens the workspace at once when this device holds the keys, else unlocks them; a refusal says why.
 */
export function SsoCallback({ outcome }: { outcome: SsoOutcome }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setCsrfToken(outcome.csrfToken);
    if (outcome.kind === "signedIn") {
      const local = loadLocalKeys(outcome.user.id);
      if (local && local.ecdhPublicKey === outcome.user.ecdhPublicKey && local.rsaPublicKey === outcome.user.rsaPublicKey) {
        openWorkspace();
        return;
      }
    }
    setReady(true);
  }, [outcome]);

  return (
    <main className="auth">
      <div className="auth-card">
        <h1>ChatCrypt</h1>
        {!ready && <p role="status">Signing you in...</p>}
        {ready && outcome.kind === "refused" && (
          <>
            <p className="form-error" role="alert">
              {outcome.message}
            </p>
            <a className="btn btn-primary" href="/">
              Back to sign in
            </a>
          </>
        )}
        {ready && outcome.kind === "signup" && <SsoSetup offer={outcome.offer} onDone={openWorkspace} />}
        {ready && outcome.kind === "link" && <SsoLink offer={outcome.offer} onDone={openWorkspace} />}
        {ready && outcome.kind === "signedIn" && <SsoUnlock user={outcome.user} onUnlocked={openWorkspace} />}
      </div>
    </main>
  );
}
