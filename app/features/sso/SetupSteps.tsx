import { useEffect, useState } from "react";
import { lazyPart } from "~/ui/lazyPart";
import type { SessionUser } from "~/lib/session-user";
import { LaterPassphrase } from "~/features/sso/LaterPassphrase";
import { PasskeyOffer } from "~/features/sso/PasskeyOffer";
import { keepSetup } from "~/features/sso/setup-step.client";

const RecoveryKeyDialog = lazyPart(() => import("~/features/recovery/RecoveryKeyDialog").then((m) => m.default), { whenFailed: "toast" });

/** A first sign-in's steps once the account and its keys exist. */
export type SetupStep =
  | { at: "passkey"; user: SessionUser }
  | { at: "passphrase"; user: SessionUser; ticket: string; problem: string | null }
  | { at: "recovery"; user: SessionUser };

/**
 * The steps left after the keys were made (ADR 81): a passkey offered after a passphrase, or a
 * passphrase offered after a passkey; the recovery key last, as at sign-up. Each step is kept for a
 * reload (setup-step.client.ts); the passphrase's ticket lived in the page only, so a reload there goes
 * on to the recovery key.
 */
export function SetupSteps({ first, onDone }: { first: SetupStep; onDone: () => void }) {
  const [step, setStep] = useState(first);
  const { user } = step;
  useEffect(() => keepSetup({ at: step.at === "passkey" ? "passkey" : "recovery", userId: user.id }), [step.at, user.id]);
  const next = () => setStep({ at: "recovery", user });

  if (step.at === "passkey") return <PasskeyOffer user={user} onDone={next} />;
  if (step.at === "passphrase") return <LaterPassphrase user={user} ticket={step.ticket} problem={step.problem} onDone={next} />;
  return <RecoveryKeyDialog user={user} offer onClose={onDone} />;
}
