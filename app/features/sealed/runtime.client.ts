/**
 * A sealed channel on this device (ADR 0015): its MLS state, kept in step with the delivery service,
 * and what it read. Loaded with a dynamic import (it brings ts-mls) when a sealed channel is used.
 *
 * Order is everything: a device keeps no keys of past epochs, so before it applies the commit that
 * ends epoch N it reads every message of epoch N it has not read yet (the server refuses messages for
 * any epoch but the current one, so after that commit there are no more). One operation at a time.
 */
import type { ClientState, Proposal } from "ts-mls";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "~/crypto/bytes";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import type { EncryptedMessage } from "~/features/messages/types";
import { commit, epochCode, epochOf, externalJoin, groupInfo, newGroup, receive, seal } from "./mls";
import { checkCredentialsFor, deviceId, newDeviceKeyPackage } from "./identity.client";
import { copyState } from "./state";
import { forgetSealedState, loadSealedState, saveSealedState } from "./store.client";
import { loadRead, saveRead } from "./read-store.client";
import { staleLeaves } from "./sync";
import { deliveryFor, type ChannelDelivery } from "./delivery.client";
import { metaEntry } from "./meta";
import type { JoinProof, SealedStatus } from "./types";

const ATTEMPTS = 5;

/**
 * The epoch this device joined at (not secret), to tell "before you joined" from "missed"; and whether
 * a commit removed it, so that it does not join again by itself (only a new Join by the user does).
 */
type Meta = { joined: number; removed?: boolean };

const b64 = base64UrlEncode;
const byEpoch = (a: EncryptedMessage, b: EncryptedMessage) =>
  (a.epoch ?? 0) - (b.epoch ?? 0) || a.created.localeCompare(b.created) || a.id.localeCompare(b.id);

export class SealedChannel {
  private chain: Promise<unknown> = Promise.resolve();
  private state: ClientState | null = null;
  private meta: Meta = { joined: 0 };
  private counted = new Set<string>();
  // What this device sealed: its own messages come back live before they are kept (sent), and MLS
  // never opens a device's own messages, so they are not "could not be read".
  private own = new Set<string>();
  private listeners = new Set<() => void>();
  private readonly delivery: ChannelDelivery;
  status: SealedStatus = { epoch: 0, code: "", before: 0, missed: 0, removed: false, rejoined: false };

  private constructor(
    readonly user: SessionUser,
    readonly channel: Channel,
    private read: Map<string, string>,
    private readonly proof: JoinProof,
  ) {
    this.delivery = deliveryFor(channel.id);
  }

  /** The channel on this device: its stored state, or a new membership (creating the group, or joining it). */
  static async open(user: SessionUser, channel: Channel, proof: JoinProof): Promise<SealedChannel> {
    checkCredentialsFor(user, channel.id);
    const runtime = new SealedChannel(user, channel, await loadRead(user.id, channel.id), proof);
    await runtime.serial(() => runtime.start());
    return runtime;
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private changed() {
    const state = this.state;
    this.status = { ...this.status, epoch: state ? Number(epochOf(state)) : 0, code: state ? epochCode(state) : "" };
    for (const listener of this.listeners) listener();
  }

  private async start() {
    const stored = localStorage.getItem(metaEntry(this.user.id, this.channel.id));
    if (stored) this.meta = JSON.parse(stored) as Meta;
    try {
      this.state = await loadSealedState(this.user.id, this.channel.id);
    } catch {
      // Altered or unreadable: this device joins again below.
      this.state = null;
    }
    if (!this.state && this.meta.removed) {
      this.status.removed = true;
    } else if (!this.state) {
      // A device that was a member here and has no usable state any more joins again, and says so.
      this.status.rejoined = Boolean(stored);
      await this.join();
    }
    this.changed();
  }

  private saveMeta(meta: Meta) {
    this.meta = meta;
    localStorage.setItem(metaEntry(this.user.id, this.channel.id), JSON.stringify(meta));
  }

  private async keep(state: ClientState) {
    this.state = state;
    await saveSealedState(this.user.id, this.channel.id, state);
  }

  // ---- joining ----
  private async join() {
    const proof = await this.proof();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const device = await newDeviceKeyPackage(this.user);
      const info = await this.delivery.groupInfo(proof);
      if (!info && this.channel.createdBy !== this.user.id)
        throw new ChatError("This sealed channel has no group yet. Please try again later.");
      if (!info) {
        // The creator's first device makes the group.
        const state = await newGroup(this.channel.id, device);
        if (await this.delivery.write("group", { groupInfo: b64(await groupInfo(state)) })) return this.joined(state);
        continue;
      }
      const made = await externalJoin(base64UrlDecode(info.group_info), device);
      const accepted = await this.delivery.write("external-join", {
        ...proof,
        epoch: info.epoch,
        commit: b64(made.commit),
        groupInfo: b64(await groupInfo(made.state)),
        ecdhPublicKey: this.user.ecdhPublicKey,
      });
      if (accepted) return this.joined(made.state);
    }
    throw new ChatError("The sealed channel could not be joined. Please try again.");
  }

  private async joined(state: ClientState) {
    this.saveMeta({ joined: Number(epochOf(state)) });
    await this.keep(state);
  }

  /** Recovery: a state that cannot follow the group any more is replaced by joining again. */
  private async rejoin() {
    forgetSealedState(this.user.id, this.channel.id);
    this.state = null;
    this.status = { ...this.status, rejoined: true };
    await this.join();
  }

  // ---- reading ----
  private unreadable(record: EncryptedMessage) {
    if (this.counted.has(record.id)) return;
    this.counted.add(record.id);
    if ((record.epoch ?? 0) < this.meta.joined) this.status.before += 1;
    else this.status.missed += 1;
  }

  /** Decrypts one message with `state` (of the message's epoch); answers the state after it. */
  private async readWith(state: ClientState, record: EncryptedMessage): Promise<ClientState> {
    if (this.read.has(record.id) || this.own.has(record.encryptedContent)) return state;
    try {
      const result = await receive(state, base64UrlDecode(record.encryptedContent));
      if (!result.plaintext) return result.state;
      const plaintext = utf8Decode(result.plaintext);
      this.read.set(record.id, plaintext);
      await saveRead(this.user.id, this.channel.id, record.id, plaintext);
      return result.state;
    } catch {
      this.unreadable(record);
      return state;
    }
  }

  /** Reads every message of the state's epoch not read yet. */
  private async readEpoch(state: ClientState): Promise<ClientState> {
    const records = (await this.delivery.epochRecords(Number(epochOf(state)))).filter((r) => !this.read.has(r.id));
    for (const record of records) state = await this.readWith(state, record);
    return state;
  }

  /** Applies every accepted commit this device has not seen, reading each epoch's messages first. */
  private async advance() {
    while (this.state && !this.status.removed) {
      const epoch = Number(epochOf(this.state));
      const commits = await this.delivery.commitsSince(epoch);
      if (commits.length === 0) return;
      for (const c of commits) {
        let state = await this.readEpoch(this.state);
        try {
          state = (await receive(state, base64UrlDecode(c.data))).state;
        } catch {
          await this.rejoin();
          break;
        }
        await this.keep(state);
        if (state.groupActiveState.kind === "removedFromGroup") {
          this.status = { ...this.status, removed: true };
          this.saveMeta({ ...this.meta, removed: true });
          forgetSealedState(this.user.id, this.channel.id);
          break;
        }
      }
      this.changed();
    }
  }

  /** The signed plaintexts of these messages that this device can read (reading what it has not yet). */
  openAll(records: EncryptedMessage[]): Promise<Map<string, string>> {
    return this.serial(async () => {
      const pending = records
        .filter((r) => !this.read.has(r.id) && !this.counted.has(r.id) && !this.own.has(r.encryptedContent))
        .sort(byEpoch);
      if (this.state && pending.some((r) => (r.epoch ?? 0) > Number(epochOf(this.state!)))) await this.advance();
      for (const record of pending) {
        if (this.read.has(record.id)) continue;
        if (this.state && !this.status.removed && (record.epoch ?? 0) === Number(epochOf(this.state))) {
          await this.keep(await this.readWith(this.state, record));
        } else {
          this.unreadable(record);
        }
      }
      this.changed();
      return new Map(records.flatMap((r) => (this.read.has(r.id) ? [[r.id, this.read.get(r.id)!] as const] : [])));
    });
  }

  /** Encrypts for the current epoch (after a 409 the caller syncs and seals again). */
  seal(plaintext: string): Promise<{ content: string; epoch: number }> {
    return this.serial(async () => {
      if (!this.state || this.status.removed) throw new ChatError("You are no longer a member of this sealed channel.");
      const epoch = Number(epochOf(this.state));
      const made = await seal(this.state, utf8Encode(plaintext));
      await this.keep(made.state);
      const content = b64(made.message);
      this.own.add(content);
      return { content, epoch };
    });
  }

  /** A message this device sent: kept, as nobody can decrypt it for the sender later. */
  async sent(messageId: string, plaintext: string) {
    this.read.set(messageId, plaintext);
    await saveRead(this.user.id, this.channel.id, messageId, plaintext);
  }

  sync(): Promise<void> {
    return this.serial(() => this.advance());
  }

  /**
   * Commits `proposals` (built from the state of each attempt). The epoch's messages are read before,
   * and those that arrived while the commit was on its way after, with a copy of the old state.
   */
  private commitChange(proposals: (state: ClientState) => Proposal[], allowEmpty = false): Promise<void> {
    return this.serial(async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        await this.advance();
        if (!this.state || this.status.removed) return;
        const before = await this.readEpoch(this.state);
        await this.keep(before);
        const list = proposals(before);
        // Another member committed the same change meanwhile: nothing is left to do.
        if (list.length === 0 && !allowEmpty) return;
        const epoch = Number(epochOf(before));
        const made = await commit(copyState(before), list);
        const accepted = await this.delivery.write("commits", {
          epoch,
          commit: b64(made.commit),
          groupInfo: b64(await groupInfo(made.state)),
        });
        if (!accepted) continue;
        await this.readEpoch(copyState(before));
        await this.keep(made.state);
        this.changed();
        return;
      }
      throw new ChatError("The channel's keys could not be updated. Please try again.");
    });
  }

  /** A fresh key for everyone (an empty commit): what was taken from a device before stops working. */
  updateKeys() {
    return this.commitChange(() => [], true);
  }

  /**
   * Removes the leaves of users who are no longer members (removed, or left), and this device's own
   * earlier leaves (from before a rejoin). Any member may commit it; the first one online does.
   */
  async reconcile(memberIds: readonly string[]) {
    const members = new Set(memberIds);
    const self = { userId: this.user.id, device: deviceId(this.user.id) };
    const stale = (state: ClientState) => staleLeaves(state, members, self);
    await this.sync();
    if (this.state && stale(this.state).length > 0) await this.commitChange(stale);
  }
}
