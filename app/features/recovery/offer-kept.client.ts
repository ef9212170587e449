import { jsonEntry } from "~/lib/storage.client";

/**
 * The recovery key offered right after a password sign-up is offered again when the tab reloads before
 * it was saved or declined (a reload used to land in the workspace, and the offer was never seen again
 * unless the person went to Account). This tab's session storage holds the account's id only: the words
 * are never kept, and a reload shows new ones (nothing was stored under the old ones).
 */
const offer = jsonEntry<{ userId: string }>(
  () => sessionStorage,
  "chatcrypt_recovery_offer",
  (kept) => typeof kept.userId === "string",
);

export function keepRecoveryOffer(userId: string): void {
  try {
    offer.set({ userId });
  } catch {
    // (storage refused: a reload loses the offer, as before; Account still offers one)
  }
}

/** Whether this tab was offering the account its recovery key when it reloaded. */
export const recoveryOfferKept = (userId: string): boolean => offer.get()?.userId === userId;

export function forgetRecoveryOffer(): void {
  try {
    offer.clear();
  } catch {
    // (as above)
  }
}
