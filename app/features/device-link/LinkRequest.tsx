import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import { Field, FormError } from "~/ui/Form";
import { DENIED, EXPIRED, OPEN_OTHER_DEVICE, POLL_MS, WAITING_FOR_CODE } from "~/features/device-link/texts";

// The device-link code (and its crypto) loads only when it is used.
const linkCode = () => import("~/features/device-link/link.client");
type Request = Awaited<ReturnType<Awaited<ReturnType<typeof linkCode>>["startRequest"]>>;

type Step = { at: "identity" } | { at: "waiting"; request: Request; code: string | null } | { at: "ended"; message: string };

/**
 * "Sign in with another device": this device asks to be approved from one where the account is signed
 * in, shows the code of both devices' keys, and receives the keys sealed to it (ADR 0059). Signed out it
 * asks for the username or email first; with `user` (signed in, keys locked) it starts at once.
 */
export function LinkRequest(props: { user?: SessionUser; onDone: (user: SessionUser) => void; onBack: () => void; backLabel: string }) {
  const [identity, setIdentity] = useState("");
  const [step, setStep] = useState<Step>({ at: "identity" });
  // Each step opens with the keyboard's focus on its first control (the field, Cancel, Start again):
  // it used to stay on the page.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>("input, button")?.focus();
  }, [step.at]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const done = useRef(props.onDone);
  done.current = props.onDone;

  async function start(input: { identity: string } | { user: SessionUser }) {
    setBusy(true);
    setError(null);
    try {
      const request = await (await linkCode()).startRequest(input);
      setStep({ at: "waiting", request, code: null });
    } catch (failure) {
      setError(messageOf(failure, "The request could not be sent. Please try again."));
      setStep({ at: "identity" });
    } finally {
      setBusy(false);
    }
  }

  // Signed in already: the request starts at once.
  useEffect(() => {
    if (props.user) void start({ user: props.user });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the step opens
  }, []);

  const request = step.at === "waiting" ? step.request : null;
  useEffect(() => {
    if (!request) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let shownKey = "";
    const next = () => {
      if (!stopped) timer = setTimeout(check, POLL_MS);
    };
    async function check() {
      if (stopped || !request) return;
      const code = await linkCode();
      try {
        const answer = await code.pollRequest(request);
        if (stopped) return;
        if (answer.state === "pending") {
          if (answer.approverKey && answer.approverKey !== shownKey) {
            shownKey = answer.approverKey;
            const shown = await code.codeOf(request, answer.approverKey);
            if (!stopped) setStep({ at: "waiting", request, code: shown });
          } else if (!answer.approverKey && shownKey) {
            // the device that showed the code let the request go (closed the question): another may take it
            shownKey = "";
            setStep({ at: "waiting", request, code: null });
          }
          return next();
        }
        stopped = true;
        if (answer.state === "approved") {
          const user = await code.receiveKeys(request, answer);
          done.current(user);
          return;
        }
        setStep({ at: "ended", message: answer.state === "denied" ? DENIED : EXPIRED });
      } catch (failure) {
        if (stopped) {
          setStep({ at: "ended", message: messageOf(failure, EXPIRED) });
          return;
        }
        // not answered this time (the network, the server busy): asked again, until it expires
        if (Date.now() > request.expires) {
          stopped = true;
          setStep({ at: "ended", message: EXPIRED });
          return;
        }
        next();
      }
    }
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [request]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!identity.trim()) {
      setError("Enter your username or email.");
      return;
    }
    void start({ identity });
  }

  async function cancel() {
    if (request) await (await linkCode()).cancelRequest(request);
    props.onBack();
  }

  function again() {
    setStep({ at: "identity" });
    if (props.user) void start({ user: props.user });
  }

  if (step.at === "waiting")
    return (
      <div className="device-link" ref={box}>
        <p>{OPEN_OTHER_DEVICE}</p>
        {step.code ? (
          <output className="link-code" aria-label="Code">
            {step.code}
          </output>
        ) : (
          <p className="hint">{WAITING_FOR_CODE}</p>
        )}
        <button type="button" className="btn btn-block" onClick={() => void cancel()}>
          Cancel
        </button>
      </div>
    );

  if (step.at === "ended")
    return (
      <div className="device-link" ref={box}>
        <p className="form-error" role="alert">
          {step.message}
        </p>
        <button type="button" className="btn btn-primary btn-block" onClick={again}>
          Start again
        </button>
        <button type="button" className="link-button" onClick={props.onBack}>
          {props.backLabel}
        </button>
      </div>
    );

  if (props.user)
    return (
      <div className="device-link" ref={box}>
        <p role="status">{busy ? "Processing..." : ""}</p>
        <FormError message={error} />
        <button type="button" className="link-button" onClick={props.onBack} disabled={busy}>
          {props.backLabel}
        </button>
      </div>
    );

  return (
    <div className="device-link" ref={box}>
      <form onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
        <Field
          label="Username or email"
          name="identity"
          autoComplete="username"
          required
          value={identity}
          onChange={(e) => setIdentity(e.target.value)}
          disabled={busy}
        />
        <FormError message={error} id={errorId} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Processing..." : "Continue"}
        </button>
      </form>
      <button type="button" className="link-button" onClick={props.onBack} disabled={busy}>
        {props.backLabel}
      </button>
    </div>
  );
}
