import { useState, type FormEvent } from "react";
import { messageOf } from "~/lib/errors";

/**
 * A form that unlocks this device's keys with a secret typed once (the account's password, or the
 * encryption passphrase after single sign-on), or switches to asking a signed-in device to approve this
 * one (`linking`, LinkRequest). `required` is what an empty secret is told.
 */
export function useUnlockForm(unlock: (secret: string) => Promise<void>, onUnlocked: () => void, required: string) {
  const [secret, setSecret] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!secret) {
      setError(required);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unlock(secret);
      onUnlocked();
    } catch (failure) {
      setError(messageOf(failure, "Your encryption keys could not be unlocked. Please try again."));
      setBusy(false);
    }
  }

  return { secret, setSecret, busy, setBusy, error, linking, setLinking, submit };
}
