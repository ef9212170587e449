/** Wire types of account recovery (the recovery key and the password reset). */

/** The signed-in user's recovery key: when it was made, or null when there is none. */
export interface RecoveryKeyStatus {
  created: string | null;
}

/** The identity private keys wrapped under the recovery key. */
export interface RecoveryWrapping {
  wrappedEcdh: string;
  wrappedRsa: string;
}

/** What a valid reset link opens: the account, its public keys and its recovery wrapping (if any). */
export interface ResetAccount {
  userId: string;
  email: string;
  ecdhPublicKey: string;
  rsaPublicKey: string;
  /** A passkey of the account holds its keys: signing in with it keeps everything (a reset removes passkeys). */
  passkeyUnlocks: boolean;
  recovery: (RecoveryWrapping & { created: string }) | null;
}

/** The one reset step: the new login secret and the keys wrapped for it; new public keys when the old keys are lost. */
export interface ResetConfirm {
  token: string;
  loginSecret: string;
  encryptedEcdhPrivateKey: string;
  encryptedRsaPrivateKey: string;
  kdfIterations: number;
  newPublicKeys?: { ecdhPublicKey: string; rsaPublicKey: string };
}
