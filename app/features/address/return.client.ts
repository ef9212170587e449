import { pathOf, placeOf } from "~/features/address/address";

/**
 * The address a sign-in through the identity provider comes back to (ADR 0061: once signed in, the
 * workspace opens what the address names). The provider's round trip leaves the page, so the address
 * is kept in this tab's session storage: a conversation, thread or message path (ids only), nothing else.
 */
const RETURN_TO = "chatcrypt_return_to";

/** Keeps the address the sign-in started from, when it names a conversation (else forgets any). */
export function keepAddressForSignIn(pathname: string): void {
  const place = placeOf(pathname);
  try {
    if (place.conversationId) sessionStorage.setItem(RETURN_TO, pathOf(place));
    else sessionStorage.removeItem(RETURN_TO);
  } catch {
    // (storage refused: the workspace opens at its start, as before)
  }
}

/** Where the signed-in workspace opens: the kept address (taken once), else "/". */
export function addressAfterSignIn(): string {
  try {
    const kept = sessionStorage.getItem(RETURN_TO);
    sessionStorage.removeItem(RETURN_TO);
    const place = kept ? placeOf(kept) : null;
    if (place?.conversationId) return pathOf(place);
  } catch {
    // (as above)
  }
  return "/";
}
