import { Field } from "~/ui/Form";
import { LockIcon } from "~/ui/icons";
import { useId, useState, type FormEvent } from "react";
import { authFormProblem } from "~/features/auth/form-checks";
import { MIN_PASSWORD_LENGTH } from "~/features/auth/limits";
import type { SessionUser } from "~/lib/session-user";
import { PasskeySignIn } from "~/features/passkeys/PasskeySignIn";
import { usePasskeysUnavailable } from "~/features/passkeys/where";
import { ForgotPassword } from "~/features/recovery/ForgotPassword";
import { LinkRequest } from "~/features/device-link/LinkRequest";
import { SsoSignIn } from "~/features/sso/SsoSignIn";

export type AuthMode = "signin" | "signup";

export interface AuthValues {
  username: string;
  email: string;
  password: string;
}

interface Props {
  busy: boolean;
  error: string | null;
  onSubmit: (mode: AuthMode, values: AuthValues) => void;
  onModeChange?: () => void;
  /** Signed in with a passkey or approved from another device, the keys unlocked. */
  onSignedIn?: (user: SessionUser) => void;
  /** Arrived with an invite: the channel's name when the link's own key opens it, null when not; undefined: no invite. */
  invitedTo?: string | null;
  /** Arrived with an invite that cannot be used: why ("This invite has expired." ...). */
  inviteRefused?: string | null;
}

/** Spec §2.2: sign-in / sign-up with Username (sign-up only), Email and Password, all required. */
export function AuthScreen({ busy, error, onSubmit, onModeChange, onSignedIn, invitedTo, inviteRefused }: Props) {
  const invited = invitedTo !== undefined;
  const [mode, setMode] = useState<AuthMode>(invited ? "signup" : "signin");
  const [values, setValues] = useState<AuthValues>({ username: "", email: "", password: "" });
  const passkeysUnavailable = usePasskeysUnavailable();
  const [formError, setFormError] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  const [linking, setLinking] = useState(false);
  const errorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = authFormProblem(mode, values);
    if (problem) {
      setFormError(problem);
      return;
    }
    setFormError(null);
    onSubmit(mode, values);
  }

  function toggle() {
    setMode((m) => (m === "signin" ? "signup" : "signin"));
    setFormError(null);
    onModeChange?.();
  }

  const shownError = formError ?? error;
  const set = (field: keyof AuthValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  if (forgot)
    return (
      <main className="auth">
        <div className="auth-card">
          <Brand />
          <ForgotPassword initialEmail={values.email} onBack={() => setForgot(false)} />
        </div>
      </main>
    );

  if (linking && onSignedIn)
    return (
      <main className="auth">
        <div className="auth-card">
          <Brand />
          <h2 className="auth-title">Sign in with another device</h2>
          <LinkRequest onDone={onSignedIn} onBack={() => setLinking(false)} backLabel="Back to sign in" />
        </div>
      </main>
    );

  return (
    <main className="auth">
      <div className="auth-card">
        <Brand />
        {inviteRefused && (
          <p className="invite-banner" role="alert">
            {inviteRefused}
          </p>
        )}
        {invited && (
          <p className="invite-banner" role="status">
            {invitedTo ? `You have been invited to #${invitedTo}` : "You have been invited to a channel"}
          </p>
        )}
        <h2 className="auth-title">{mode === "signin" ? "Sign In" : "Sign Up"}</h2>
        {/* (on Sign Up too: an invited newcomer's first sign-in through the provider makes their account) */}
        <SsoSignIn disabled={busy} />
        <form onSubmit={submit} noValidate aria-describedby={shownError ? errorId : undefined}>
          {mode === "signup" && (
            <Field
              label="Username"
              name="username"
              autoComplete="username"
              required
              value={values.username}
              onChange={set("username")}
              disabled={busy}
            />
          )}
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={values.email}
            onChange={set("email")}
            disabled={busy}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === "signup" ? "new-password" : "current-password"}
            hint={mode === "signup" ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
            required
            value={values.password}
            onChange={set("password")}
            disabled={busy}
          />
          {shownError && (
            <p id={errorId} className="form-error" role="alert">
              {shownError}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? "Processing..." : mode === "signin" ? "Sign In" : "Sign Up"}
          </button>
        </form>
        {mode === "signin" && (
          <button type="button" className="link-button" onClick={() => setForgot(true)} disabled={busy}>
            Forgot your password?
          </button>
        )}
        {mode === "signin" && onSignedIn && (
          <button type="button" className="btn btn-block" onClick={() => setLinking(true)} disabled={busy}>
            Sign in with another device
          </button>
        )}
        {mode === "signin" && onSignedIn && passkeysUnavailable === null && <PasskeySignIn disabled={busy} onSignedIn={onSignedIn} />}
        <p className="auth-note">
          Your password is the key to your messages and channels. Save a recovery key (Menu &gt; Account) to reset a forgotten password
          without losing them.
        </p>
        <button type="button" className="link-button" onClick={toggle} disabled={busy}>
          {mode === "signin" ? "Don't have an account? Sign up" : "Already have an account? Sign in"}
        </button>
      </div>
    </main>
  );
}

function Brand() {
  return (
    <>
      <div className="brand">
        <span className="brand-mark">
          <LockIcon size={26} />
        </span>
        <h1>ChatCrypt</h1>
      </div>
      <p className="tagline">End-to-end encrypted messaging</p>
    </>
  );
}
