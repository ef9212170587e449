/**
 * A commit this device posted whose answer it never got (the connection dropped, the server failed
 * after storing it): the state it made with it, kept until the group's commits show whether the server
 * took it. A member cannot process its own commit, so without that state it would join the group again
 * as a new leaf and lose what was sent in the epoch its commit started.
 */
import type { ClientState } from "ts-mls";

type Posted = { epoch: number; data: string; state: ClientState };

export class Unanswered {
  private posted: Posted | null = null;
  /** Whether the last commit posted was met among the group's commits since. */
  landed = false;

  /** A commit is on its way: `data` as posted, for `epoch` (the one it ends), `state` the one it makes. */
  post(epoch: number, data: string, state: ClientState) {
    this.posted = { epoch, data, state };
    this.landed = false;
  }

  /** The server answered (it took the commit, or refused it): nothing to look for. */
  answered() {
    this.posted = null;
  }

  /** The state to go on from when `commit`, from the group's list, is the one posted here without an answer. */
  take(commit: { epoch: number; data: string }): ClientState | null {
    const posted = this.posted;
    if (!posted || posted.epoch !== commit.epoch || posted.data !== commit.data) return null;
    this.posted = null;
    this.landed = true;
    return posted.state;
  }
}
