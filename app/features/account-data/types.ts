/** The account's wrapped private keys, handed to the page of an email-change link once the password checks out. */
export interface EmailChangeKeys {
  id: string;
  email: string;
  newEmail: string;
  encryptedEcdhPrivateKey: string;
  encryptedRsaPrivateKey: string;
  kdfIterations: number;
}

/** What deleting the account did to the channels the user created. */
export interface DeletedAccount {
  channelsHandedOver: number;
  channelsDeleted: number;
}

/** One channel or direct conversation of the user, as the server holds it. */
export interface ServerConversation {
  id: string;
  name: string;
  direct: boolean;
  sealed: boolean;
  created_by_you: boolean;
  created: string;
  joined: string;
  /** A direct conversation's other participants (usernames). */
  participants: string[];
  messages_sent: number;
}

/** Everything the server holds about the user (pb_hooks/lib/account_data.js exportAccount): ciphertext stays ciphertext. */
export interface ServerExport {
  account: Record<string, unknown> & { id: string; email: string; pending_email?: string; encrypted_settings: string };
  profile: Record<string, unknown> | null;
  channels: ServerConversation[];
  contacts: { id: string; name: string; phone_number: string; created: string; updated: string }[];
  keyring: { channel: string; created: string; updated: string }[];
  key_pins: { subject: string; data: string; created: string; updated: string; username: string }[];
  key_pin_head: { counter: number; updated: string } | null;
  read_positions: { channel: string; last_read: string; updated: string }[];
  push_subscriptions: { endpoint: string; device: string; created: string }[];
  notify_rules: unknown;
  sent: { messages: number; files: number; file_bytes: number; mls_commits: number };
  mls_key_packages: number;
  /** The message archive (ADR 0048): how many entries, in how many conversations, how many characters of ciphertext. */
  message_archive: { entries: number; conversations: number; characters: number };
  other: Record<string, unknown[]>;
}
