import { useEffect, useState } from "react";
import type { SsoConfig } from "~/features/sso/types";
import { keepAddressForSignIn } from "~/features/address/return.client";

/** "Sign in with <provider>" on the sign-in screen, when single sign-on is set up. */
export function SsoSignIn({ disabled }: { disabled: boolean }) {
  const [config, setConfig] = useState<SsoConfig | null>(null);
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    let live = true;
    fetch("/api/auth/sso")
      .then((res) => (res.ok ? (res.json() as Promise<SsoConfig>) : null))
      .then((answer) => live && setConfig(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!config?.enabled) return null;
  return (
    <div className="sso-signin">
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={disabled || leaving}
        onClick={() => {
          setLeaving(true);
          // (a conversation's address opens once signed in: the provider's round trip leaves the page)
          keepAddressForSignIn(window.location.pathname);
          window.location.assign("/auth/sso/start");
        }}
      >
        {`Sign in with ${config.name}`}
      </button>
      {config.required && <p className="auth-note">This workspace requires single sign-on; only the owner signs in with a password.</p>}
    </div>
  );
}
