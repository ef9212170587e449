/** Settings the server acts on, so it holds them in clear: whether to email, and with the message text or not. */
export interface ServerSettings {
  emailNotificationsEnabled: boolean;
  emailIncludeContent: boolean;
}

/** Settings only the user's browser reads: stored encrypted under the settings key (`encryptedSettings`). */
export interface PrivateSettings {
  translationLanguage: string;
  translationEnabled: boolean;
  desktopNotificationsEnabled: boolean;
  notifyOnMention: boolean;
  notifyKeywords: string[];
  worldClockCities: string[];
  /** Tell the others when this user is typing (on unless turned off). */
  sendTypingIndicators: boolean;
}

export type UserSettings = ServerSettings & PrivateSettings;

/** What the page knows about the signed-in user. Wrapped private keys and private settings are ciphertext the server cannot open. */
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
  settings: ServerSettings;
  /** The private settings, sealed in the browser; empty until the user first saves them. */
  encryptedSettings: string;
  /** The workspace role on the user's profile (docs/decisions/0053-roles.md): the server enforces it. */
  role: string;
  /** Whether "New channel" is offered: not to guests, nor to members when only admins create channels. */
  canCreateChannels: boolean;
}
