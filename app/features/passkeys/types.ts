import type { SessionUser } from "~/lib/session-user";

/** A passkey as the account's list shows it. `unlocks`: it wraps the identity keys (PRF). */
export interface PasskeyListing {
  id: string;
  name: string;
  created: string;
  /** Empty until the passkey first signs in. */
  lastUsed: string;
  unlocks: boolean;
}

/** What a passkey sign-in hands the page to unlock the keys with (empty wrapped keys: no PRF). */
export interface PasskeyUnlock {
  credentialId: string;
  wrappedEcdhPrivateKey: string;
  wrappedRsaPrivateKey: string;
}

export interface PasskeySignInAnswer {
  user: SessionUser;
  unlock: PasskeyUnlock;
}
