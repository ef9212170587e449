/**
 * A sealed channel on this device (ADR 0015): its MLS state, kept in step with the delivery service
 * (member.client.ts), and what it read. Loaded with a dynamic import (it brings ts-mls) when a sealed
 * channel is used.
 *
 * Order is everything: a device keeps no keys of past epochs, so before it applies the commit that
 * ends epoch N it reads every message of epoch N it has not read yet (the server refuses messages for
 * any epoch but the current one, so after that commit there are no more). One operation at a time.
 */
import type { ClientState } from "ts-mls";
import { base64UrlEncode, utf8Encode } from "~/crypto/bytes";
import { ChatError, NobodyJoinedError } from "~/lib/errors";
import { api } from "~/lib/api.client";
import { askedText } from "./asked.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { epochOf, exportSecret, seal } from "./mls";
import { checkCredentialsFor, deviceId, onlyAccepted, othersPresent, retiringIdentities, retiringLeaves } from "./identity.client";
import { pastOtherTabs, sealingAlone } from "./tabs.client";
import { loadRead } from "./read-store.client";
import { staleLeaves } from "./sync";
import { leafOwner } from "./identity";
import { fetchArchive } from "./reading.client";
import { archiveMark, loadMeta } from "./meta";
import { CommittingMember } from "./committing.client";
import { JoinWait, notJoined } from "./joiners.client";
import { ofEarlierGroup, resetGroup } from "./recovery.client";
import type { JoinProof } from "./types";
import { devicesAwaitedText, letBackText, partnerGoneText, waitingText, words } from "./words";
import { outsideOf } from "./outside";

const b64 = base64UrlEncode;
/** How long the entries of one batch of another device's archive are waited for. */
const ARCHIVE_GREW_MS = 500;

export class SealedChannel extends CommittingMember {
  /** The channel on this device: its stored state, or a new membership (made with the creator's `participants`, or joined). */
  static async open(user: SessionUser, channel: Channel, proof: JoinProof, participants?: readonly string[]): Promise<SealedChannel> {
    checkCredentialsFor(user, channel.id);
    const archived = loadMeta(user.id, channel.id)?.archived === archiveMark(user) ? null : fetchArchive(user.id, channel.id);
    const runtime = new SealedChannel(user, channel, await loadRead(user.id, channel.id), proof, participants);
    await runtime.serial(() => runtime.start());
    const found = await archived;
    if (found) runtime.reading.restore(found, () => runtime.saveMeta({ ...runtime.meta, archived: archiveMark(user) }));
    if (archived) runtime.reading.archiveRead();
    return runtime;
  }

  /** Of what this device cannot read from before it joined, what was sent before the user's membership began (`since`). */
  sentBeforeMember = (since: string) => this.reading.sentBefore(since, this.meta.joined);

  /** The signed plaintexts of these messages that this device can read (reading what it has not yet). */
  openAll(records: EncryptedMessage[]): Promise<Map<string, string>> {
    return this.serial(async () => {
      const pending = this.reading.pending(records);
      if (pending.length > 0) await this.retryIfListed();
      const later = (r: EncryptedMessage) => !ofEarlierGroup(r, this.meta.group) && (r.epoch ?? 0) !== Number(epochOf(this.state!));
      // A message of another epoch: the group moved on, was replaced, or this device is out of step.
      if (this.lost || (this.state && pending.some(later))) await this.advance();
      const failed = await this.openPending(pending);
      // A message of this epoch that did not open: the creator may have replaced the group, whose
      // epochs start again (ADR 0049). Then it is tried again in the new group.
      if (failed.length > 0 && (await this.replacedMeanwhile())) {
        this.reading.forgive(failed, this.meta.joined);
        await this.openPending(failed);
      }
      if (await this.reading.readArchiveAgain(this.meta.joined)) this.restored += 1;
      this.archiveLater();
      this.changed();
      return this.reading.texts(records);
    });
  }

  /** Times the archive gave this page messages it lacked; a pending reading of it. */
  private restored = 0;
  private archiveTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Messages from before the join counted since the archive was last read: read again when allowed
   * (nothing else may ask: a quiet conversation said "cannot be read here" until a reload), and the
   * page told to read their texts. `grew`: another device of the user added to the archive (live), read
   * again at once (the entries of one batch come together) while any message here is unreadable.
   */
  archiveLater(grew = false) {
    const due = grew ? (this.reading.before > 0 ? ARCHIVE_GREW_MS : -1) : this.reading.archiveDue();
    if (due < 0 || this.archiveTimer) return;
    this.archiveTimer = setTimeout(() => {
      this.archiveTimer = null;
      void this.serial(async () => {
        if (await this.reading.readArchiveAgain(this.meta.joined, grew)) this.restored += 1;
        this.changed();
      });
    }, due);
  }

  protected changed() {
    // (the status the member's changed() builds keeps this, and tells the listeners once)
    const outside = outsideOf(this.channel, this.guard, this.status.removed, this.members ?? [], this.user.id);
    this.status = { ...this.status, restored: this.restored, ...outside };
    super.changed();
  }

  /** Reads what it can of these records; answers those of the state's epoch that did not open. */
  private async openPending(pending: EncryptedMessage[]): Promise<EncryptedMessage[]> {
    const failed: EncryptedMessage[] = [];
    for (const record of pending) {
      if (this.reading.has(record.id)) continue;
      if (ofEarlierGroup(record, this.meta.group)) this.reading.unreadable(record, Infinity);
      else if (this.state && !this.status.removed && (record.epoch ?? 0) === Number(epochOf(this.state))) {
        await this.keep(await this.reading.open(this.state, record, this.meta.joined));
        if (!this.reading.has(record.id) && !this.reading.own.has(record.encryptedContent)) failed.push(record);
      } else {
        this.reading.unreadable(record, this.meta.joined);
      }
    }
    return failed;
  }

  /** Encrypts for the current epoch (after a 409 the caller syncs and seals again). */
  seal(plaintext: string): Promise<{ content: string; epoch: number }> {
    return this.serial(async () => {
      const guard = this.guard;
      // Nobody off a direct conversation's list may read it: their leaves go before anything is sealed.
      // Caught up first: a group its creator replaced may have reached this state's epoch number again (ADR 0049).
      await this.advance();
      // A group's participant who accepted, whose device's join has not landed yet: waited for a bounded time.
      if (guard && !this.channel.oneToOne)
        await this.joins.wait(
          () => this.notJoined(),
          () => this.advance(),
        );
      if (guard && this.state && (await guard.healing(this.state)).length > 0) await this.commitNow((state) => guard.healing(state));
      // The user's own devices from before a reset without the recovery key go too (ADR 0051).
      if (this.state && retiringLeaves(this.state).length > 0) await this.commitNow(retiringLeaves);
      // (a member again but off the list, removed or not yet: held until the other person lets them back in, ADR 0098)
      if (this.status.letBackBy) throw new NobodyJoinedError(letBackText(this.channel.name));
      if (!this.state || this.status.removed) throw new ChatError(words(this.channel).removed);
      // Nothing is sealed for a device under keys not accepted (ADR 0051), nor for nobody: until someone
      // else is a member again and joined (accepted the request), it waits (ADR 0052).
      await onlyAccepted(this.user, this.state, this.channel.id);
      const alone = this.channel.direct ? await this.alone(this.state) : null;
      if (alone) throw new NobodyJoinedError(alone);
      const epoch = Number(epochOf(this.state));
      // (the browser's other tabs are this device too: one at a time, each past what the others sealed)
      const made = await sealingAlone(this.user.id, this.channel.id, async () => {
        const sealed = await seal(await pastOtherTabs(this.user.id, this.channel.id, this.state!), utf8Encode(plaintext));
        await this.keep(sealed.state);
        return sealed;
      });
      const content = b64(made.message);
      this.reading.own.add(content);
      return { content, epoch };
    });
  }

  /** MLS-Exporter(label, context) of the current epoch (32 bytes), caught up: a call's key (`sharing`: every device accepted), a group's name's. */
  exported(label: string, context: string, sharing = false): Promise<{ key: Uint8Array; epoch: number }> {
    return this.serial(async () => {
      if (this.leaving) throw new ChatError("You are no longer a member of this conversation.");
      await this.advance();
      if (!this.state || this.status.removed) throw new ChatError("You are no longer a member of this conversation.");
      if (sharing) await onlyAccepted(this.user, this.state, this.channel.id);
      return { key: await exportSecret(this.state, label, utf8Encode(context), 32), epoch: Number(epochOf(this.state)) };
    });
  }

  /** A message this device sent: kept, as nobody can decrypt it for the sender later. */
  async sent(messageId: string, plaintext: string) {
    await this.reading.keep(messageId, plaintext);
  }

  sync(): Promise<void> {
    return this.serial(async () => {
      if (this.leaving) return;
      await this.retryIfListed();
      await this.advance();
    });
  }

  /** A fresh key for everyone (an empty commit): what was taken from a device before stops working. */
  updateKeys() {
    return this.commitChange(() => [], true);
  }

  /** Users whose devices the group holds (or whom a direct conversation lists) who are not among `memberIds`. */
  private outsiders(memberIds: readonly string[]): string[] {
    if (!this.state) return [];
    const members = new Set(memberIds);
    const owners = this.state.ratchetTree.flatMap((node) =>
      node?.nodeType === "leaf" && node.leaf.credential.credentialType === "basic"
        ? [leafOwner(node.leaf.credential.identity)?.userId ?? ""]
        : [],
    );
    return [...new Set([...owners, ...(this.guard?.trusted?.users ?? [])])].filter((id) => id && !members.has(id));
  }

  private readonly joins = new JoinWait();

  /** Participants on the trusted list and the server's (or the channel list's) members with no device in the group yet. */
  private notJoined(): string[] {
    const listed = this.guard?.trusted?.users;
    const members = this.members ?? this.channel.participants?.map((p) => p.id);
    if (!this.state || this.status.removed || !listed || !members) return [];
    return notJoined(this.state, listed, members, this.user.id);
  }

  /** The server's members, as the page last listed them (null until it has). */
  private members: readonly string[] | null = null;

  /**
   * Why nobody else would read a message now: no other user is a member on the server (a request not
   * accepted), or none of their devices is in the group yet; null when someone would.
   */
  private async alone(state: ClientState): Promise<string | null> {
    const name = this.channel.oneToOne ? this.channel.name : await askedText(this.user.id, this.channel.id);
    const others = (ids: readonly string[]) => ids.some((id) => id !== this.user.id);
    // (not listed yet, or the list the page showed may be old when this conversation is not the open one: asked again)
    if (!this.members || !others(this.members)) {
      const { members } = await api<{ members: { userId: string }[] }>(`/api/channels/${this.channel.id}/members`);
      this.members = members.map((m) => m.userId);
      if (!others(this.members)) return (this.status.partnerGone ? partnerGoneText : waitingText)(name);
    }
    // (devices of the others from before their reset do not count: signed out by it, ADR 0051)
    if (await othersPresent(this.user, state)) return null;
    return devicesAwaitedText(this.channel, name, this.unlisted(this.members));
  }

  /** Removes leaves of users no longer members, and this device's own earlier ones; the first member online commits it. */
  async reconcile(memberIds: readonly string[], deactivated?: (ids: string[]) => Promise<{ id: string; username: string }[]>) {
    this.members = memberIds;
    this.changed();
    const self = { userId: this.user.id, device: deviceId(this.user.id) };
    const guard = this.guard;
    // Someone deactivated while no member's page was open: the first page to open the conversation removes
    // them, in the chain of operations (a message sealed after this waits for it). A direct conversation
    // follows its own list, not the server's: leaves off it go, in the same operation (the group as just
    // read: no second catch-up before its commit).
    if (deactivated || guard)
      await this.serial(async () => {
        await this.advance();
        const outsiders = this.outsiders(memberIds);
        if (deactivated && outsiders.length > 0)
          for (const gone of await deactivated(outsiders)) await this.removeNow(gone.id, gone.username);
        if (guard) await this.commitNow((state) => guard.reconciling(state, self));
      });
    if (guard) return;
    const stale = (state: ClientState) => staleLeaves(state, new Set(memberIds), self, retiringIdentities());
    await this.sync();
    if (this.state && stale(this.state).length > 0) await this.commitChange(stale);
  }

  /** The creator's "Reset encryption for this conversation" (ADR 0049): a new group with the current members in place of the old one. */
  resetEncryption(): Promise<void> {
    return this.serial(async () => {
      const { state, group } = await resetGroup(this.joining());
      this.saveMeta({ ...this.meta, group });
      this.lost = false;
      this.failures = 0;
      this.status = { ...this.status, rejoined: false, removed: false, broken: false };
      await this.joined(state);
      this.reading.recount(this.meta.joined);
      this.changed();
    });
  }
}
