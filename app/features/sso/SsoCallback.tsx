import { useEffect, useState } from "react";
import { setCsrfToken } from "~/lib/api.client";
import { loadLocalKeys } from "~/lib/storage.client";
import type { SsoOutcome } from "~/features/sso/sso.server";
import { SsoSetup } from "~/features/sso/SsoSetup";
import { SsoUnlock } from "~/features/sso/SsoUnlock";
import { SsoLink } from "~/features/sso/SsoLink";
import { SetupSteps, type SetupStep } from "~/features/sso/SetupSteps";
import { forgetSetup, keepSetup, keptSetup, leaveCallbackAddress, SETUP_PATH } from "~/features/sso/setup-step.client";
import { addressAfterSignIn } from "~/features/address/return.client";

// (at the address the sign-in started from, when it named a conversation)
const openWorkspace = () => {
  forgetSetup();
  window.location.replace(addressAfterSignIn());
};

const INTERRUPTED = "The page was reloaded before your account was set up, so nothing was saved. Start again to set it up.";

type View = SsoOutcome | { kind: "steps"; step: SetupStep };

/**
 * What the page shows for the callback's outcome, or null when the workspace opens at once. At the
 * set-up's own address (a reload): the steps left once the account exists, or "nothing was saved".
 */
function viewOf(outcome: SsoOutcome): View | null {
  const reloaded = window.location.pathname === SETUP_PATH;
  const kept = reloaded ? keptSetup() : null;
  if (outcome.kind !== "refused") leaveCallbackAddress();
  if (outcome.kind === "signup" || outcome.kind === "link") keepSetup({ at: "start" });
  if (outcome.kind !== "signedIn") return outcome;
  const { user } = outcome;
  if (kept?.at === "start") return { kind: "interrupted", csrfToken: outcome.csrfToken };
  if (kept?.userId === user.id) return { kind: "steps", step: { at: kept.at, user } };
  forgetSetup();
  const local = loadLocalKeys(user.id);
  if (local && local.ecdhPublicKey === user.ecdhPublicKey && local.rsaPublicKey === user.rsaPublicKey) return null;
  return outcome;
}

/**
 * Where the identity provider sends the browser back: a first sign-in sets up encryption (or, when a
 * password account has the email, links it with its password); a later one
 * opens the workspace at once when this device holds the keys, else unlocks them; a refusal says why.
 * Once the code is used the address is the set-up's own (setup-step.client.ts), where a reload lands.
 */
export function SsoCallback({ outcome }: { outcome: SsoOutcome }) {
  const [view, setView] = useState<View | null>(null);
  useEffect(() => {
    setCsrfToken(outcome.csrfToken);
    const shown = viewOf(outcome);
    if (shown) setView(shown);
    else openWorkspace();
  }, [outcome]);

  return (
    <main className="auth">
      <div className="auth-card">
        <h1>ChatCrypt</h1>
        {!view && <p role="status">Signing you in...</p>}
        {view?.kind === "refused" && (
          <>
            <p className="form-error" role="alert">
              {view.message}
            </p>
            <a className="btn btn-primary" href="/">
              Back to sign in
            </a>
          </>
        )}
        {view?.kind === "interrupted" && (
          <>
            <p role="alert">{INTERRUPTED}</p>
            <a className="btn btn-primary btn-block" href="/auth/sso/start">
              Start again
            </a>
            <a className="btn btn-block" href="/">
              Back to sign in
            </a>
          </>
        )}
        {view?.kind === "signup" && <SsoSetup offer={view.offer} onDone={openWorkspace} />}
        {view?.kind === "link" && <SsoLink offer={view.offer} onDone={openWorkspace} />}
        {view?.kind === "signedIn" && <SsoUnlock user={view.user} onUnlocked={openWorkspace} />}
        {view?.kind === "steps" && <SetupSteps first={view.step} onDone={openWorkspace} />}
      </div>
    </main>
  );
}
