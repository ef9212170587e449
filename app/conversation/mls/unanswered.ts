/**
 * A commit this device posted whose answer it never got (the connection dropped, the server failed
 * after storing it, the tab closed first): the state it made with it, kept until the group's commits
 * show whether the server took it. A member cannot process its own commit, so without that state it
 * would join the group again as a new leaf and lose what was sent in the epoch its commit started.
 * It is kept on the device too (sealed like the state, store.client.ts), so that the next page of a tab
 * closed before the answer, or before it stored the state after it, goes on from it.
 */
import type { ClientState } from "ts-mls";
import { forgetUnansweredCommit, loadUnansweredCommit, saveUnansweredCommit } from "./store.client";

type Posted = { epoch: number; data: string; state: ClientState };

export class Unanswered {
  private posted: Posted | null = null;
  /** The epoch of the copy kept on the device, if any. */
  private copyAt: number | null = null;
  /** Whether the last commit posted was met among the group's commits since. */
  landed = false;

  /** `where`: the user and channel whose commits these are. */
  constructor(private readonly where: () => [userId: string, channelId: string]) {}

  /** A commit is about to be posted: `data` as posted, for `epoch` (the one it ends), `state` the one it makes. */
  async post(epoch: number, data: string, state: ClientState) {
    this.posted = { epoch, data, state };
    this.landed = false;
    await saveUnansweredCommit(...this.where(), this.posted);
    this.copyAt = epoch;
  }

  /**
   * The server answered (it took the commit, or refused it): nothing to look for. The copy on the device
   * stays until a state after its epoch is stored (stored): a tab that dies between the answer and
   * storing the state the commit made goes on from it next time. (One that was refused is never met
   * among the group's commits.)
   */
  answered() {
    this.posted = null;
  }

  /** A state at `epoch` was stored on the device: a copy of a commit that ended an earlier epoch is done with. */
  stored(epoch: number) {
    if (this.copyAt === null || epoch <= this.copyAt) return;
    this.copyAt = null;
    forgetUnansweredCommit(...this.where());
  }

  /** A commit posted by an earlier page of this device at `epoch` (the stored state's) that got no answer, or whose new state it did not store. */
  async restore(epoch: number) {
    const kept = await loadUnansweredCommit(...this.where()).catch(() => null);
    if (kept?.epoch === epoch) [this.posted, this.copyAt] = [kept, epoch];
    else if (kept) forgetUnansweredCommit(...this.where());
  }

  /** The state to go on from when `commit`, from the group's list, is the one posted here without an answer. */
  take(commit: { epoch: number; data: string }): ClientState | null {
    const posted = this.posted;
    if (!posted || posted.epoch !== commit.epoch || posted.data !== commit.data) return null;
    this.answered();
    this.landed = true;
    return posted.state;
  }
}
