/**
 * The commits a device makes in its group (ADR 0015): from the group's current state, made again after
 * another member's commit took the epoch (409), with the ended epoch's messages read before and, with
 * the state from before the commit, after. One whose answer never came (the connection dropped) is
 * looked for among the group's commits before it is called failed.
 */
import type { ClientState, Proposal } from "ts-mls";
import { base64UrlEncode } from "~/crypto/bytes";
import { ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ChannelDelivery } from "./delivery.client";
import { GroupMember } from "./member.client";
import { commit, epochOf, groupInfo } from "./mls";
import { copyState } from "./state";
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
