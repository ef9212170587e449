/**
 * Where a first single sign-on's set-up is, so that a reload goes on from there (ADR 63, addendum
 * 2026-12-02). Once the callback has used the provider's one-time code the address becomes the set-up's
 * own (`/auth/sso/setup`): a reload never sends the used code again. The step is kept in this tab's
 * session storage: "start" (no account yet: a reload loses the sign-up's ticket, which lived in the page
 * only), or the account's id and the step after its keys were made. Nothing secret: no ticket, no key,
 * no recovery words (a reload at the recovery key shows new ones).
 */
export const SETUP_PATH = "/auth/sso/setup";
const SETUP_STEP = "chatcrypt_sso_setup";

/** What is left once the account and its keys exist. */
export type StepLeft = "passkey" | "recovery";
export type KeptSetup = { at: "start" } | { at: StepLeft; userId: string };

/** The callback's address (with the used code) becomes the set-up's own, in the same history entry. */
export function leaveCallbackAddress(): void {
  if (window.location.pathname !== SETUP_PATH) window.history.replaceState(window.history.state, "", SETUP_PATH);
}

export function keepSetup(kept: KeptSetup): void {
  try {
    sessionStorage.setItem(SETUP_STEP, JSON.stringify(kept));
  } catch {
    // (storage refused: a reload during the set-up starts again, as before)
  }
}

export function keptSetup(): KeptSetup | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(SETUP_STEP) ?? "null") as Partial<{ at: string; userId: string }> | null;
    if (kept?.at === "start") return { at: "start" };
    if ((kept?.at === "passkey" || kept?.at === "recovery") && typeof kept.userId === "string") return { at: kept.at, userId: kept.userId };
  } catch {
    // (as above; a value that does not parse is no step)
  }
  return null;
}

export function forgetSetup(): void {
  try {
    sessionStorage.removeItem(SETUP_STEP);
  } catch {
    // (as above)
  }
}
