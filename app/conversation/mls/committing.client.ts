/**
 * The commits a device makes in its group (ADR 0015): from the group's current state, made again after
 * another member's commit took the epoch (409), with the ended epoch's messages read before and, with
 * the state from before the commit, after. One whose answer never came (the connection dropped) is
 * looked for among the group's commits before it is called failed. The changes of who is in it go
 * through them: a direct conversation's list (people added, the user leaving) and a deactivated member's
 * removal.
 */
import type { ClientState, Proposal } from "ts-mls";
import { base64UrlEncode } from "~/crypto/bytes";
import { ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ChannelDelivery } from "./delivery.client";
import { GroupMember } from "./member.client";
import { commit, epochOf, groupInfo } from "./mls";
import { copyState } from "./state";
import { removeUser } from "./sync";
import { words } from "./words";

const ATTEMPTS = 5;

const b64 = base64UrlEncode;
export type Proposals = (state: ClientState) => Proposal[] | Promise<Proposal[]>;

/** A refusal: the server answered and did not take the commit (a lost answer, a busy or failing server may have). */
const refused = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

export abstract class CommittingMember extends GroupMember {
  /** The other people on the direct conversation's list this device trusts (ADR 0098): whom what it writes is for. */
  get listedOthers(): string[] {
    return (this.guard?.trusted?.users ?? []).filter((id) => id !== this.user.id);
  }

  /** Whether any of these members (the server's) is someone else off the trusted list: back, not let in yet. */
  protected unlisted(members: readonly string[]) {
    return members.some((id) => id !== this.user.id && !this.listedOthers.includes(id));
  }

  /** Commits `proposals` (rebuilt on each attempt), reading the epoch's messages before and, with the old state, after. */
  protected commitChange(proposals: Proposals, allowEmpty = false): Promise<void> {
    return this.serial(async () => void (await this.commitNow(proposals, allowEmpty)));
  }

  /** commitChange's work, for callers already in the serial chain; true when this device committed. */
  protected async commitNow(proposals: Proposals, allowEmpty = false): Promise<boolean> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // Right after this device's own commit (a direct conversation's list, then a removal), or when the
      // server said the group is at this state's epoch, its state is the group's, and the epoch's messages
      // come with this commit's answer: one request. Else the epoch's messages come with the commits, and
      // after the commit with its answer: two.
      const current = attempt === 0 && this.state !== null && this.currentAt === Number(epochOf(this.state));
      if (!current) await this.advance(true);
      if (!this.state || this.status.removed) return false;
      const before = current ? this.state : await this.readEpoch(this.state);
      if (!current) await this.keep(before);
      const list = await proposals(before);
      // Another member committed the same change meanwhile: nothing is left to do.
      if (list.length === 0 && !allowEmpty) return false;
      const epoch = Number(epochOf(before));
      const made = await commit(copyState(before), list);
      const data = b64(made.commit);
      await this.unanswered.post(epoch, data, made.state);
      let accepted: Awaited<ReturnType<ChannelDelivery["commit"]>>;
      try {
        accepted = await this.delivery.commit({ epoch, commit: data, groupInfo: b64(await groupInfo(made.state)) });
      } catch (error) {
        if (await this.landedAnyway(error)) return true;
        throw error;
      }
      this.unanswered.answered();
      if (!accepted) continue;
      this.currentAt = epoch + 1;
      // What arrived in the epoch meanwhile is read with the state from before the commit.
      const after = accepted.messages && !accepted.messages.hasMore ? accepted.messages.messages : null;
      await (after ? this.readRecords(copyState(before), after) : this.readEpoch(copyState(before)));
      await this.keep(made.state);
      await this.guard?.follow(made.state);
      this.changed();
      return true;
    }
    throw new ChatError(words(this.channel).keysFailed);
  }

  /** A direct conversation's new participant list (people added, or this user leaving), committed to the group. */
  changeParticipants(change: { add?: readonly string[]; leave?: boolean }): Promise<void> {
    const guard = this.guard;
    if (!guard) return Promise.resolve();
    // (someone added again after leaving: the devices they left with go in a first commit, the list in a second)
    return this.serial(async () => {
      if ((await this.commitNow((state) => guard.change(state, change))) && change.add?.length)
        await this.commitNow((state) => guard.change(state, change));
      // (its own commit moved the group on: what follows that, here, would ask as the leave lands, refused)
      if (change.leave) this.leaving = true;
      this.changed();
    });
  }

  /** The user is leaving the conversation from this page (its list changed): nothing more is read or derived. */
  protected leaving = false;

  /**
   * An administrator deactivated this user (ADR 0056): every device of theirs leaves the group (from a
   * direct conversation's list first: removals and a list change go in separate commits), and the
   * conversation says so. Whichever member's page gets there first commits; the others find nothing left.
   */
  removeDeactivated(userId: string, name: string, group?: { epoch: number; generation: number }): Promise<void> {
    return this.serial(() => {
      // The group as the server had it once the membership ended: a state at that epoch (of the same
      // group) commits at once.
      if (group && (this.meta.group?.generation ?? 0) === group.generation) this.currentAt = group.epoch;
      return this.removeNow(userId, name);
    });
  }

  /** removeDeactivated's work, for callers already in the serial chain. */
  protected async removeNow(userId: string, name: string) {
    if (userId === this.user.id) return;
    const guard = this.guard;
    if (guard) await this.commitNow((state) => guard.change(state, { remove: [userId] }));
    await this.commitNow((state) => removeUser(state, userId));
    const noted = this.status.removedByAdmin ?? [];
    if (!noted.some((n) => n.userId === userId))
      this.status = { ...this.status, removedByAdmin: [...noted, { userId, name, at: new Date().toISOString() }] };
    this.changed();
  }

  /**
   * Whether a commit whose request failed with `error` was taken all the same: the answer, not the
   * request, may be what was lost. The group's commits say so; met there, it was followed (advance:
   * the device goes on from the state it made). Unknown (still unreachable) counts as not taken.
   */
  private async landedAnyway(error: unknown): Promise<boolean> {
    if (refused(error)) {
      this.unanswered.answered();
      return false;
    }
    try {
      await this.advance();
    } catch {
      return false;
    }
    return this.unanswered.landed;
  }
}
