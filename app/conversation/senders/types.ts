/** One key pin as the page receives it: whose keys it holds and the ciphertext. */
export interface EncryptedPin {
  subjectId: string;
  data: string;
}

/** A pin's content, opened in the browser: the identity public keys first seen, and whether they were verified. */
export interface Pin {
  e: string;
  r: string;
  v: boolean;
  /** The RSA keys pinned for this user before (oldest first), kept when new keys are accepted (ADR 0051). */
  o?: string[];
}

export interface PublicProfile {
  id: string;
  username: string;
  ecdhPublicKey: string;
  rsaPublicKey: string;
  /** A deleted account: its username reads "Deleted user", its public keys are the ones it kept. */
  deleted?: true;
  /** An administrator deactivated the account (ADR 0056): its messages stay, marked so. */
  deactivated?: true;
}

/** The head of the user's pins as stored: a counter the server checks, and the sealed head (counter and a digest of every pin). */
export interface SealedHead {
  counter: number;
  data: string;
}

/** Pins saved in one request at most (pb_hooks/pins.pb.js refuses more). */
export const MAX_PINS_PER_SAVE = 25;
