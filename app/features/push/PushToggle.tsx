import { useEffect, useState } from "react";
import { Check, FormError } from "~/ui/Form";
import { disablePush, enablePush, pushState, type PushState } from "~/features/push/push.client";

/** "Notify me when ChatCrypt is closed": this browser's Web Push subscription, turned on or off at once. */
export function PushToggle({ userId }: { userId: string }) {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void pushState(userId).then(setState, () => setState("unsupported"));
  }, [userId]);

  async function change(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (on) await enablePush(userId);
      else await disablePush();
      setState(await pushState(userId));
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : "Notifications could not be changed. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  if (state === null) return null;
  if (state === "unsupported") return <p className="hint">This browser cannot notify you while ChatCrypt is closed.</p>;
  return (
    <div>
      <Check
        label="Notify me when ChatCrypt is closed"
        checked={state === "on"}
        disabled={busy || state === "blocked"}
        onChange={(e) => void change(e.currentTarget.checked)}
      />
      {state === "blocked" && <p className="hint">Notifications are blocked for this site in the browser&apos;s settings.</p>}
      <p className="hint">
        The notification is opened on this device: the server and the push service only carry the encrypted message. Messages of sealed
        channels and direct messages show as &ldquo;New message&rdquo;.
      </p>
      {busy && <p role="status">{state === "on" ? "Turning off…" : "Turning on…"}</p>}
      <FormError message={error} />
    </div>
  );
}
