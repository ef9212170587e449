/**
 * The one seam for a conversation's crypto (docs/decisions/0019-conversation-seam.md): what the rest of
 * the page (messages, files, link previews, search, unread, export) may ask of any conversation,
 * whatever protocol is behind it: a classic channel (one key from its password), a sealed channel
 * (MLS, joined with the password) or a direct conversation (MLS, joined as a listed participant).
 */
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { SenderKey } from "~/conversation/senders/sender-keys.client";

export type ConversationKind = "classic" | "sealed" | "direct";

/** What a conversation's security is, for its header and members panel. */
export interface SecurityFacts {
  kind: ConversationKind;
  /** Members read from the moment they joined (MLS), rather than the whole history with the password. */
  forwardSecrecy: boolean;
  /** How a person becomes a member: by knowing the channel password, or by being listed by a member. */
  joinedBy: "password" | "participant";
  /** How members are verified: every sender's signature against their pinned identity keys, and in MLS every device's leaf too. */
  verifiedBy: "signatures" | "signatures-and-leaves";
}

/** A record's verified body, and whether it is signed by an earlier key of its sender's than their current one (ADR 0051). */
export interface Opened {
  body: string;
  previous: boolean;
  /** The key its files and previews are under, for contentKey, where that is not the conversation's current one (ADR 0060). */
  keyRef?: string;
}

/** Posts one sealed message's ciphertext (with the MLS epoch it is for, where there is one). */
export type PostCiphertext = (encryptedContent: string, epoch?: number) => Promise<EncryptedMessage>;

export interface ConversationCrypto {
  readonly facts: SecurityFacts;
  /** Signs and seals one encoded message body (messages/body.ts) and posts it; answers the stored record. */
  send(body: string, post: PostCiphertext): Promise<EncryptedMessage>;
  /**
   * The verified plaintext bodies of these records that this device can read (anything else is left
   * out), each checked against its sender's keys (`keysOf`: current first, then earlier ones, ADR 0051).
   */
  open(records: EncryptedMessage[], keysOf: (senderId: string) => readonly SenderKey[]): Promise<Map<string, Opened>>;
  /** A new key for one message's files and previews (base64url), or undefined where the conversation's own key is used. */
  newItemKey(): Promise<string | undefined>;
  /** The key of a message's files and previews (from the key its body names, where it names one); null when this device has none. */
  contentKey(itemKey?: string): Promise<CryptoKey | null>;
  /** Whether this device holds what it needs to read the conversation (a channel's password; a direct conversation needs none). */
  canRead(): boolean;
  /**
   * Makes the conversation ready on this device (an MLS group is made or joined); nothing for a classic
   * channel. The creator of a direct conversation names the `participants` they chose.
   */
  prepare(participants?: readonly string[]): Promise<void>;
  /**
   * Who the members are, where the conversation itself says so (a direct conversation's list inside its
   * MLS group, which every member's page enforces): changes it from the list this device trusts, and
   * commits that before the server is told (people added, or the user leaving). Nothing for a channel,
   * whose members the server lists.
   */
  changeParticipants(change: { add?: readonly string[]; leave?: boolean }): Promise<void>;
  /**
   * The media key of one call in the conversation (`callId`: the call server's id of the call), the
   * same on every member's device and never sent to a server (docs/decisions/0030-calls-livekit.md):
   * from the MLS exporter secret of the current epoch for a sealed channel or a direct conversation,
   * from the channel password with the call id as salt for a classic channel. `epoch` says which
   * (0 for a classic channel, whose key does not change).
   */
  callKey(callId: string): Promise<CallKey>;
  /**
   * Resolves when a call's key could be had now, before the page connects to the call: refused (the
   * error `callKey` would give) while the group holds a device under keys the user has not accepted
   * (ADR 0100), or this device is no longer a member; a classic channel's needs its password.
   */
  callReady(): Promise<void>;
  /**
   * A 32-byte secret of the conversation's current MLS epoch, MLS-Exporter(label, context), that every
   * member's device shares and no server sees (a group name's key, ADR 0050); refused for a classic channel.
   */
  groupKey(label: string, context: string): Promise<CallKey>;
  /** Calls `listener` whenever the conversation's keys may have changed (an MLS epoch); never for a classic channel. */
  watchKeys(listener: () => void): () => void;
}

/** A call's media key (32 bytes) and the MLS epoch it belongs to. */
export interface CallKey {
  key: Uint8Array;
  epoch: number;
}
