/** What the page knows about the signed-in user. Wrapped private keys are ciphertext the server cannot open. */
export interface UserSettings {
  translationLanguage: string;
  translationEnabled: boolean;
  desktopNotificationsEnabled: boolean;
  emailNotificationsEnabled: boolean;
  emailIncludeContent: boolean;
  notifyOnMention: boolean;
  notifyKeywords: string[];
  worldClockCities: string[];
}

export interface SessionUser {
  id: string;
  email: string;
  /** The owner confirmed the address through the emailed link; email notifications need it. */
  verified: boolean;
  profileFound: boolean;
  username: string;
  ecdhPublicKey: string;
  rsaPublicKey: string;
  encryptedEcdhPrivateKey: string;
  encryptedRsaPrivateKey: string;
  kdfIterations: number;
  settings: UserSettings;
}
