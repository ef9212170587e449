/**
 * A sealed channel on this device (ADR 0015): its MLS state, kept in step with the delivery service,
 * and what it read. Loaded with a dynamic import (it brings ts-mls) when a sealed channel is used.
 *
 * Order is everything: a device keeps no keys of past epochs, so before it applies the commit that
 * ends epoch N it reads every message of epoch N it has not read yet (the server refuses messages for
 * any epoch but the current one, so after that commit there are no more). One operation at a time.
 */
import type { ClientState, Proposal } from "ts-mls";
import { base64UrlDecode, base64UrlEncode, utf8Encode } from "~/crypto/bytes";
import { ChatError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import type { EncryptedMessage } from "~/features/messages/types";
import { commit, epochCode, epochOf, exportSecret, groupInfo, receive, seal } from "./mls";
import { checkCredentialsFor, deviceId } from "./identity.client";
import { joinGroup } from "./join.client";
import { RosterGuard, RosterRefused } from "./roster.client";
import { copyState } from "./state";
import { forgetSealedState, loadSealedState, saveSealedState } from "./store.client";
import { loadRead } from "./read-store.client";
import { staleLeaves } from "./sync";
import { fetchArchive, Reading } from "./reading.client";
import { deliveryFor, type ChannelDelivery } from "./delivery.client";
import { loadMeta, storeMeta, type Meta } from "./meta";
import type { JoinProof, SealedStatus } from "./types";
import { words } from "./words";

const ATTEMPTS = 5;

const b64 = base64UrlEncode;
type Proposals = (state: ClientState) => Proposal[] | Promise<Proposal[]>;

export class SealedChannel {
  private chain: Promise<unknown> = Promise.resolve();
  private state: ClientState | null = null;
  private meta: Meta = { joined: 0 };
  private readonly reading: Reading;
  private listeners = new Set<() => void>();
  private readonly delivery: ChannelDelivery;
  /** A direct conversation's participant list (roster.client.ts); none for a sealed channel. */
  private readonly guard: RosterGuard | null;
  status: SealedStatus = { epoch: 0, code: "", before: 0, missed: 0, removed: false, rejoined: false, refused: [], tampered: false };

  private constructor(
    readonly user: SessionUser,
    readonly channel: Channel,
    read: Map<string, string>,
    private readonly proof: JoinProof,
    private readonly participants?: readonly string[],
  ) {
    this.delivery = deliveryFor(channel.id);
    this.reading = new Reading(user.id, channel.id, read);
    this.guard = channel.direct ? new RosterGuard(user, channel.id, null, (roster) => this.saveMeta({ ...this.meta, roster })) : null;
  }

  /** The channel on this device: its stored state, or a new membership (made with the creator's `participants`, or joined). */
  static async open(user: SessionUser, channel: Channel, proof: JoinProof, participants?: readonly string[]): Promise<SealedChannel> {
    checkCredentialsFor(user, channel.id);
    const archived = loadMeta(user.id, channel.id)?.archived ? null : fetchArchive(user.id, channel.id);
    const runtime = new SealedChannel(user, channel, await loadRead(user.id, channel.id), proof, participants);
    await runtime.serial(() => runtime.start());
    const found = await archived;
    if (found) runtime.reading.restore(found, () => runtime.saveMeta({ ...runtime.meta, archived: true }));
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
    const refused = this.guard ? [...this.guard.refused] : [];
    const tampered = this.guard?.tampered ?? false;
    const { before, missed } = this.reading;
    const epoch = state ? Number(epochOf(state)) : 0;
    this.status = { ...this.status, epoch, code: state ? epochCode(state) : "", before, missed, refused, tampered };
    for (const listener of this.listeners) listener();
  }

  private async start() {
    const stored = loadMeta(this.user.id, this.channel.id);
    if (stored) this.meta = stored;
    if (this.guard) this.guard.trusted = this.meta.roster ?? null;
    // An altered or unreadable state is none: this device joins again below.
    this.state = await loadSealedState(this.user.id, this.channel.id).catch(() => null);
    if (!this.state && this.meta.removed && !this.guard) {
      this.status.removed = true;
    } else if (!this.state) {
      // A device that was a member here and has no usable state any more joins again, and says so. A
      // removed device of a direct conversation tries too: it gets in only if a participant listed it again.
      this.status.rejoined = Boolean(stored) && !this.meta.removed;
      await (this.meta.removed ? this.rejoinIfListed() : this.join());
    }
    this.changed();
  }

  private saveMeta(meta: Meta) {
    this.meta = meta;
    storeMeta(this.user.id, this.channel.id, meta);
  }

  private async keep(state: ClientState) {
    this.state = state;
    await saveSealedState(this.user.id, this.channel.id, state);
  }

  private async join() {
    const { user, channel, delivery, proof, guard, participants, status } = this;
    await this.joined(await joinGroup({ user, channel, delivery, proof, guard, participants, fromWelcome: !status.rejoined }));
  }

  private async joined(state: ClientState) {
    this.saveMeta({ joined: Number(epochOf(state)), ...(this.guard?.trusted ? { roster: this.guard.trusted } : {}) });
    await this.keep(state);
  }

  /**
   * A removed device of a direct conversation gets in again only if a participant listed it again (which
   * may land after the server made its user a member again: sync and new messages try again).
   */
  private async rejoinIfListed() {
    this.status.removed = false;
    await this.join().catch((error) => {
      if (!(error instanceof RosterRefused)) throw error;
      this.status.removed = true;
    });
    if (!this.status.removed) this.reading.recount(this.meta.joined);
  }

  /** A direct conversation this device was removed from, tried again (see rejoinIfListed). */
  private async retryIfListed() {
    if (!this.guard || this.state || !this.status.removed) return;
    await this.rejoinIfListed();
    this.changed();
  }

  /** Recovery: a state that cannot follow the group any more is replaced by joining again. */
  private async rejoin() {
    forgetSealedState(this.user.id, this.channel.id);
    this.state = null;
    this.status = { ...this.status, rejoined: true };
    await this.join();
  }

  /** Reads every message of the state's epoch not read yet. */
  private async readEpoch(state: ClientState): Promise<ClientState> {
    const records = (await this.delivery.epochRecords(Number(epochOf(state)))).filter((r) => !this.reading.has(r.id));
    for (const record of records) state = await this.reading.open(state, record, this.meta.joined);
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
        await this.guard?.follow(state);
        if (state.groupActiveState.kind === "removedFromGroup") {
          this.status = { ...this.status, removed: true };
          this.saveMeta({ ...this.meta, removed: true });
          forgetSealedState(this.user.id, this.channel.id);
          this.state = null;
          if (this.guard) await this.rejoinIfListed();
          break;
        }
      }
      this.changed();
    }
  }

  /** The signed plaintexts of these messages that this device can read (reading what it has not yet). */
  openAll(records: EncryptedMessage[]): Promise<Map<string, string>> {
    return this.serial(async () => {
      const pending = this.reading.pending(records);
      if (pending.length > 0) await this.retryIfListed();
      if (this.state && pending.some((r) => (r.epoch ?? 0) > Number(epochOf(this.state!)))) await this.advance();
      for (const record of pending) {
        if (this.reading.has(record.id)) continue;
        if (this.state && !this.status.removed && (record.epoch ?? 0) === Number(epochOf(this.state))) {
          await this.keep(await this.reading.open(this.state, record, this.meta.joined));
        } else {
          this.reading.unreadable(record, this.meta.joined);
        }
      }
      this.changed();
      return this.reading.texts(records);
    });
  }

  /** Encrypts for the current epoch (after a 409 the caller syncs and seals again). */
  seal(plaintext: string): Promise<{ content: string; epoch: number }> {
    return this.serial(async () => {
      const guard = this.guard;
      // Nobody off a direct conversation's list may read it: their leaves go before anything is sealed.
      if (guard && this.state && (await guard.healing(this.state)).length > 0) await this.commitNow((state) => guard.healing(state));
      if (!this.state || this.status.removed) throw new ChatError(words(this.channel).removed);
      const epoch = Number(epochOf(this.state));
      const made = await seal(this.state, utf8Encode(plaintext));
      await this.keep(made.state);
      const content = b64(made.message);
      this.reading.own.add(content);
      return { content, epoch };
    });
  }

  /** MLS-Exporter(label, context) of the current epoch (32 bytes), after catching up with the group: a call's key, a group's name's. */
  exported(label: string, context: string): Promise<{ key: Uint8Array; epoch: number }> {
    return this.serial(async () => {
      await this.advance();
      if (!this.state || this.status.removed) throw new ChatError("You are no longer a member of this conversation.");
      return { key: await exportSecret(this.state, label, utf8Encode(context), 32), epoch: Number(epochOf(this.state)) };
    });
  }

  /** A message this device sent: kept, as nobody can decrypt it for the sender later. */
  async sent(messageId: string, plaintext: string) {
    await this.reading.keep(messageId, plaintext);
  }

  sync(): Promise<void> {
    return this.serial(async () => {
      await this.retryIfListed();
      await this.advance();
    });
  }

  /** Commits `proposals` (rebuilt on each attempt), reading the epoch's messages before and, with the old state, after. */
  private commitChange(proposals: Proposals, allowEmpty = false): Promise<void> {
    return this.serial(() => this.commitNow(proposals, allowEmpty));
  }

  /** commitChange's work, for callers already in the serial chain. */
  private async commitNow(proposals: Proposals, allowEmpty = false): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      await this.advance();
      if (!this.state || this.status.removed) return;
      const before = await this.readEpoch(this.state);
      await this.keep(before);
      const list = await proposals(before);
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
      await this.guard?.follow(made.state);
      this.changed();
      return;
    }
    throw new ChatError(words(this.channel).keysFailed);
  }

  /** A fresh key for everyone (an empty commit): what was taken from a device before stops working. */
  updateKeys() {
    return this.commitChange(() => [], true);
  }

  /** Removes leaves of users no longer members, and this device's own earlier ones; the first member online commits it. */
  async reconcile(memberIds: readonly string[]) {
    const self = { userId: this.user.id, device: deviceId(this.user.id) };
    const guard = this.guard;
    // A direct conversation follows its own list, not the server's: leaves off it go.
    if (guard) return this.commitChange((state) => guard.reconciling(state, self));
    const stale = (state: ClientState) => staleLeaves(state, new Set(memberIds), self);
    await this.sync();
    if (this.state && stale(this.state).length > 0) await this.commitChange(stale);
  }

  /** A direct conversation's new participant list (people added, or this user leaving), committed to the group. */
  changeParticipants(change: { add?: readonly string[]; leave?: boolean }): Promise<void> {
    if (!this.guard) return Promise.resolve();
    return this.commitChange((state) => this.guard!.change(state, change));
  }
}
