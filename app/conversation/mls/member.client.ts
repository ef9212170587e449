/**
 * A device's membership of a sealed channel's or direct conversation's MLS group (ADR 0015, 19, 49):
 * its state kept in step with the delivery service (commits applied in order, each epoch's messages
 * read before the commit that ends it), joining, and getting back in when it lost step: a commit it
 * cannot process, a stored state it cannot use, or a group its creator replaced (recovery.client.ts).
 * The operations on top (sealing, commits) are the runtime's (runtime.client.ts). One at a time.
 */
import type { ClientState } from "ts-mls";
import { base64UrlDecode } from "~/crypto/bytes";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { epochCode, epochOf, receive } from "./mls";
import { joinGroup } from "./join.client";
import { RosterGuard, RosterRefused } from "./roster.client";
import { forgetSealedState, loadSealedState, saveSealedState, storedStateAfter } from "./store.client";
import { Reading } from "./reading.client";
import { byEpoch, COMMITS_PAGE, deliveryFor, type ChannelDelivery } from "./delivery.client";
import { loadMeta, storeMeta, type GroupMark, type Meta } from "./meta";
import { ofEarlierGroup, RECOVERIES, replaced } from "./recovery.client";
import type { JoinProof, SealedStatus } from "./types";
import { Unanswered } from "./unanswered";

export abstract class GroupMember {
  protected chain: Promise<unknown> = Promise.resolve();
  protected state: ClientState | null = null;
  protected meta: Meta = { joined: 0 };
  protected readonly reading: Reading;
  protected listeners = new Set<() => void>();
  /** Out of step with the group, not in again yet (ADR 0049); `failures` rejoins failed since. */
  protected lost = false;
  protected failures = 0;
  protected readonly delivery: ChannelDelivery;
  /**
   * The messages of the epochs advance() read with the commits (all of them: read after the commits
   * that ended those epochs, and after the commits for the current one), each for the next readEpoch of
   * its epoch only.
   */
  private fresh = new Map<number, EncryptedMessage[]>();
  /**
   * An epoch at which this device's state is the group's, in the operation under way (serial): the one
   * its own commit started, or the one the server named when a member was deactivated (ADR 0056). A
   * commit from it needs no catch-up first (had another come meanwhile, the server answers 409).
   */
  protected currentAt: number | null = null;
  /** This device's commit whose answer never came: followed from the state it made, if the group has it. */
  protected readonly unanswered = new Unanswered(() => [this.user.id, this.channel.id]);
  /** A direct conversation's participant list (roster.client.ts); none for a sealed channel. */
  protected readonly guard: RosterGuard | null;
  status: SealedStatus = { epoch: 0, code: "", before: 0, missed: 0, removed: false, rejoined: false, refused: [], tampered: false };

  protected constructor(
    readonly user: SessionUser,
    readonly channel: Channel,
    read: Map<string, string>,
    protected readonly proof: JoinProof,
    protected participants?: readonly string[],
  ) {
    this.delivery = deliveryFor(channel.id);
    this.reading = new Reading(user.id, channel.id, read);
    this.guard = channel.direct ? new RosterGuard(user, channel, null, (roster) => this.saveMeta({ ...this.meta, roster })) : null;
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  protected serial<T>(work: () => Promise<T>): Promise<T> {
    const go = () => {
      this.currentAt = null;
      // (what an earlier operation read with the commits may be stale by now)
      this.fresh.clear();
      return work();
    };
    const run = this.chain.then(go, go);
    this.chain = run.catch(() => undefined);
    return run;
  }

  protected changed() {
    const state = this.state;
    const refused = this.guard ? [...this.guard.refused] : [];
    const tampered = this.guard?.tampered ?? false;
    const { before, missed } = this.reading;
    const epoch = state ? Number(epochOf(state)) : 0;
    const resetBy = this.meta.group?.reset_by || undefined;
    const pendingBy = this.guard?.pending?.by;
    this.status = { ...this.status, epoch, code: state ? epochCode(state) : "", before, missed, refused, tampered, resetBy, pendingBy };
    for (const listener of this.listeners) listener();
  }

  protected async start() {
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
    } else {
      // A stored state may be of a group replaced meanwhile, or behind (ADR 0049); offline, it is used as it is.
      await this.unanswered.restore(Number(epochOf(this.state)));
      await this.advance().catch((error) => console.warn("The group could not be caught up with yet", error));
    }
    this.changed();
  }

  protected saveMeta(meta: Meta) {
    this.meta = meta;
    storeMeta(this.user.id, this.channel.id, meta);
  }

  protected async keep(state: ClientState) {
    this.state = state;
    await saveSealedState(this.user.id, this.channel.id, state);
    this.unanswered.stored(Number(epochOf(state)));
  }

  protected joining() {
    const { user, channel, delivery, proof, guard, participants, status } = this;
    return { user, channel, delivery, proof, guard, participants, fromWelcome: !status.rejoined };
  }

  protected async join() {
    // Which group it joins, looked at first: a reset in between shows as a newer one at the next sync (ADR 0049).
    const group = await this.delivery.currentGroup();
    const state = await joinGroup(this.joining());
    this.participants = undefined; // (a conversation made here is made once: a later join asks for its group)
    if (group) this.meta = { ...this.meta, group };
    await this.joined(state);
  }

  protected async joined(state: ClientState) {
    const { group } = this.meta;
    this.saveMeta({
      joined: Number(epochOf(state)),
      ...(group ? { group } : {}),
      ...(this.guard?.trusted ? { roster: this.guard.trusted } : {}),
    });
    await this.keep(state);
  }

  /**
   * A removed device of a direct conversation gets in again only if a participant listed it again (which
   * may land after the server made its user a member again: sync and new messages try again).
   */
  protected async rejoinIfListed() {
    this.status.removed = false;
    await this.join().catch((error) => {
      if (!(error instanceof RosterRefused)) throw error;
      this.status.removed = true;
    });
    if (!this.status.removed) this.reading.recount(this.meta.joined);
  }

  /** A direct conversation this device was removed from, tried again (see rejoinIfListed). */
  protected async retryIfListed() {
    if (!this.guard || this.state || !this.status.removed) return;
    await this.rejoinIfListed();
    this.changed();
  }

  /** Recovery: a state that cannot follow the group any more is replaced by joining again (ADR 0049). */
  protected async rejoin(group?: GroupMark) {
    forgetSealedState(this.user.id, this.channel.id);
    this.state = null;
    this.lost = true;
    // Into a group its creator replaced, a device comes as a new one (by its Welcome, if it has one).
    if (group) {
      this.saveMeta({ ...this.meta, group });
      this.failures = 0;
    }
    this.status = { ...this.status, rejoined: !group };
    await this.recover();
  }

  /** Joins again by external commit (or Welcome) from the latest GroupInfo; after RECOVERIES failures in a row, stops. */
  protected async recover() {
    if (!this.lost || this.failures >= RECOVERIES) return;
    try {
      await this.join();
      this.lost = false;
      this.failures = 0;
      this.reading.recount(this.meta.joined);
    } catch (error) {
      this.failures += 1;
      console.warn("This device could not join the group again yet", error);
    }
    this.status = { ...this.status, broken: this.lost && this.failures >= RECOVERIES };
  }

  /** Whether the creator replaced the group since this device last looked; if so, it joins the new one. */
  protected async replacedMeanwhile(): Promise<boolean> {
    const group = await this.delivery.currentGroup();
    if (!replaced(this.meta, group)) return false;
    await this.rejoin(group);
    return true;
  }

  /** Reads every message of the state's epoch not read yet (those advance() just read with the commits, if it did). */
  protected async readEpoch(state: ClientState): Promise<ClientState> {
    const epoch = Number(epochOf(state));
    const fresh = this.fresh.get(epoch);
    this.fresh.delete(epoch);
    return this.readRecords(state, fresh ?? (await this.delivery.epochRecords(epoch)));
  }

  /** Reads these records of the state's epoch that it has not read yet. */
  protected async readRecords(state: ClientState, all: EncryptedMessage[]): Promise<ClientState> {
    const records = all.filter((r) => !this.reading.has(r.id));
    for (const record of records)
      if (ofEarlierGroup(record, this.meta.group)) this.reading.unreadable(record, Infinity);
      else state = await this.reading.open(state, record, this.meta.joined);
    return state;
  }

  /**
   * Applies every accepted commit this device has not seen, reading each epoch's messages first. With
   * `withMessages` (a commit follows) the messages of the epochs it goes through and of the one it ends
   * at come with the commits, in one request: readEpoch uses them.
   */
  protected async advance(withMessages = false) {
    this.fresh.clear();
    await this.recover();
    // Still out (the GroupInfo too may be unusable): only a group its creator put in place lets it in.
    if (this.lost) await this.replacedMeanwhile();
    while (this.state && !this.status.removed) {
      const epoch = Number(epochOf(this.state));
      const { commits, group, messages }: Awaited<ReturnType<ChannelDelivery["catchUp"]>> = await (withMessages
        ? this.delivery.catchUp(epoch)
        : this.delivery.commitsSince(epoch));
      this.fresh = byEpoch(messages, epoch, epoch + commits.length);
      // The creator replaced the group (ADR 0049): this device joins the new one.
      if (replaced(this.meta, group)) {
        this.fresh.clear();
        await this.rejoin(group);
        continue;
      }
      if (commits.length === 0) return this.currentAsRead();
      let followed = true;
      for (const c of commits) {
        let state = await this.readEpoch(this.state);
        try {
          state = this.unanswered.take(c) ?? (await receive(state, base64UrlDecode(c.data))).state;
        } catch (error) {
          // Made by another tab of this browser (this device)? Then it goes on from that tab's state after it.
          const stored = await storedStateAfter(this.user.id, this.channel.id, state);
          if (stored) {
            [this.state, this.meta, followed] = [stored, loadMeta(this.user.id, this.channel.id) ?? this.meta, false];
            break;
          }
          console.warn("A commit could not be followed: this device joins the group again", error);
          await this.rejoin();
          followed = false;
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
          followed = false;
          break;
        }
      }
      this.changed();
      // Every commit there was, followed: the state is the group's as of the read (a commit of this
      // device's made from it meanwhile would be refused, 409, and it catches up again).
      if (followed && commits.length < COMMITS_PAGE) return this.currentAsRead();
    }
  }

  /**
   * The server has just named no commit after this state's epoch: a commit of this device's in the same
   * operation needs no catch-up first (one made meanwhile by another member gets it refused, 409).
   */
  private currentAsRead() {
    if (this.state) this.currentAt = Number(epochOf(this.state));
  }
}
