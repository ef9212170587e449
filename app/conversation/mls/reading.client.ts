/**
 * What a device read of a sealed channel or direct conversation (kept: an MLS message opens once), what
 * it sealed itself (MLS never opens a device's own messages, and they come back live before they are
 * kept), and what it could not open, each once, by the epoch it was sent in: before the device's join,
 * or missed after. Counted again against a new join epoch when the device joins anew.
 */
import type { ClientState } from "ts-mls";
import { base64UrlDecode, utf8Decode } from "~/crypto/bytes";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { receive } from "./mls";
import { archive, restore } from "~/conversation/archive/archive.client";
import { ApiError } from "~/lib/api.client";
import { saveRead, saveReadMany } from "./read-store.client";

const byEpoch = (a: EncryptedMessage, b: EncryptedMessage) =>
  (a.epoch ?? 0) - (b.epoch ?? 0) || a.created.localeCompare(b.created) || a.id.localeCompare(b.id);

/** The least time between two readings of the archive for more messages from before the join. */
const ARCHIVE_AGAIN_MS = 10_000;

/**
 * How old the last reading of the archive may be while messages from before the join are still
 * missing: another device of the user's may have kept them there since (its upload landing after this
 * page's look), and the page reads again at its next opening of messages, once a minute at most.
 */
const ARCHIVE_STALE_MS = 60_000;

/** Waits before each new try of an archive that could not be read for now (busy, unreachable). */
const ARCHIVE_RETRIES_MS = [500, 1_000, 2_000, 4_000];

/** A refusal that may pass in a moment: too many requests (429), a server error, no connection. */
const transient = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

/**
 * The user's archive of a conversation (ADR 0048), fetched once per device (SealedChannel.open: alongside
 * the join, then Reading.restore). A busy or unreachable server is asked again a few times (a new
 * device's first minute sends many requests for one account); null when it still cannot be read (tried
 * again on the next page load).
 */
export async function fetchArchive(userId: string, channelId: string): Promise<Map<string, string> | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await restore(userId, channelId);
    } catch (error) {
      if (!transient(error) || attempt >= ARCHIVE_RETRIES_MS.length) {
        console.warn("The message archive could not be read", error);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, ARCHIVE_RETRIES_MS[attempt]));
    }
  }
}

export class Reading {
  /** The messages this device cannot open: the epoch each was sent in, and when. */
  private readonly counted = new Map<string, { epoch: number; created: string }>();
  /** The ciphertexts this device sealed. */
  readonly own = new Set<string>();
  before = 0;
  missed = 0;

  constructor(
    private readonly userId: string,
    private readonly channelId: string,
    private readonly read: Map<string, string>,
  ) {}

  has(id: string) {
    return this.read.has(id);
  }

  /** The records neither read, counted nor sealed here, in epoch order. */
  pending(records: EncryptedMessage[]) {
    return records.filter((r) => !this.read.has(r.id) && !this.counted.has(r.id) && !this.own.has(r.encryptedContent)).sort(byEpoch);
  }

  /** The plaintexts read of these records. */
  texts(records: EncryptedMessage[]): Map<string, string> {
    return new Map(records.flatMap((r) => (this.read.has(r.id) ? [[r.id, this.read.get(r.id)!] as const] : [])));
  }

  /** A message this device read or sent, kept here and queued for the user's archive (ADR 0048). */
  async keep(messageId: string, plaintext: string) {
    this.read.set(messageId, plaintext);
    void archive(this.userId, this.channelId, new Map([[messageId, plaintext]])).catch((error) =>
      console.warn("A message could not be queued for the archive", error),
    );
    await saveRead(this.userId, this.channelId, messageId, plaintext);
  }

  /**
   * What the user's archive holds of this conversation, once per device: what this device lacks is read
   * at once and kept here (`kept` is called once it is stored), and what only this device had (read
   * before the archive existed) is queued for it.
   */
  restore(archived: ReadonlyMap<string, string>, kept: () => void) {
    const missing = new Map([...archived].filter(([id]) => !this.read.has(id)));
    const unarchived = new Map([...this.read].filter(([id]) => !archived.has(id)));
    for (const [id, plaintext] of missing) this.read.set(id, plaintext);
    Promise.all([saveReadMany(this.userId, this.channelId, missing), archive(this.userId, this.channelId, unarchived)]).then(
      kept,
      (error) => console.warn("The message archive could not be kept on this device", error),
    );
  }

  /** Decrypts one message with `state` (of the message's epoch); answers the state after it. */
  async open(state: ClientState, record: EncryptedMessage, joined: number): Promise<ClientState> {
    if (this.read.has(record.id) || this.own.has(record.encryptedContent)) return state;
    try {
      const result = await receive(state, base64UrlDecode(record.encryptedContent));
      if (result.plaintext) await this.keep(record.id, utf8Decode(result.plaintext));
      return result.state;
    } catch {
      this.unreadable(record, joined);
      return state;
    }
  }

  /** Counts a message this device cannot open (once). */
  unreadable(record: EncryptedMessage, joined: number) {
    if (this.counted.has(record.id)) return;
    const epoch = record.epoch ?? 0;
    this.counted.set(record.id, { epoch, created: record.created });
    if (epoch < joined) this.before += 1;
    else this.missed += 1;
  }

  /** Messages counted as unreadable that are to be tried again (in a group that replaced the one they were tried in). */
  forgive(records: EncryptedMessage[], joined: number) {
    for (const record of records) this.counted.delete(record.id);
    this.recount(joined);
  }

  /** When this page last read the user's archive of the conversation, and how many messages from before the join it lacked then. */
  private archiveAsked: { at: number; before: number } | null = null;

  /** The archive was read (as the conversation opened on this page). */
  archiveRead() {
    this.archiveAsked = { at: Date.now(), before: this.before };
  }

  /**
   * Messages from before this device joined that it cannot open are read from the user's archive, which
   * another of the user's devices may have filled since this one last read it (a message read there while
   * this device was joining; an edit read there later): once per page, again for more of them, and again
   * once the last reading is a minute old; `now`: at once (the archive grew).
   */
  async readArchiveAgain(joined: number, now = false): Promise<boolean> {
    const asked = this.archiveAsked;
    if (this.before === 0) return false;
    if (asked && !now) {
      const since = Date.now() - asked.at;
      if (since < ARCHIVE_STALE_MS && (this.before <= asked.before || since < ARCHIVE_AGAIN_MS)) return false;
    }
    this.archiveRead();
    const found = await fetchArchive(this.userId, this.channelId);
    if (!found) return false;
    const lacked = this.before;
    this.restore(found, () => undefined);
    for (const id of this.counted.keys()) if (this.read.has(id)) this.counted.delete(id);
    this.recount(joined);
    this.archiveRead();
    return this.before < lacked;
  }

  /**
   * In how many milliseconds the archive may be read again for messages from before the join counted
   * since the last reading (one sent from another of the user's devices as this one joined, whose copy
   * lands in the archive a moment later), or -1 when there are none.
   */
  archiveDue(): number {
    const asked = this.archiveAsked;
    if (!asked || this.before <= asked.before) return -1;
    return Math.max(0, asked.at + ARCHIVE_AGAIN_MS - Date.now());
  }

  /** Every message counted again against the epoch this device joined at. */
  recount(joined: number) {
    this.before = 0;
    this.missed = 0;
    for (const { epoch } of this.counted.values()) {
      if (epoch < joined) this.before += 1;
      else this.missed += 1;
    }
  }

  /**
   * Of the messages from before this device joined, those sent before `since` (the user's membership
   * began then: none of their devices was in the conversation, so none can ever read them).
   */
  sentBefore(since: string, joined: number): number {
    const at = Date.parse(since.replace(" ", "T"));
    let count = 0;
    for (const { epoch, created } of this.counted.values()) if (epoch < joined && Date.parse(created.replace(" ", "T")) < at) count += 1;
    return count;
  }
}
