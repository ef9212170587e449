/**
 * A group conversation's participants who accepted but whose devices are not in the group yet (ADR
 * 0052, addendum): after Accept a device joins by its own external commit, which can land a moment after
 * the other pages list it as a member. A message sealed before that commit is one it can never read, so
 * the sender's device catches up with the group a few times, a bounded time, before it seals; a
 * participant whose devices do not come then is not waited for again on this page (until they join).
 */
import type { ClientState } from "ts-mls";
import { leaves } from "./sync";

/** How long a message waits for accepted participants' devices to join. */
export const WAIT_FOR_JOIN_MS = 8_000;
/** The pauses between catch-ups while waiting (the last one repeats). */
const RETRY_MS = [200, 400, 800, 1_500];

/** Users on the trusted list and on the server's member list (not the viewer) none of whose devices is in the group. */
export function notJoined(state: ClientState, listed: readonly string[], members: readonly string[], viewerId: string): string[] {
  const joined = new Set(leaves(state).map((l) => l.identity.split(":")[0]));
  const accepted = new Set(members);
  return listed.filter((id) => id !== viewerId && accepted.has(id) && !joined.has(id));
}

export class JoinWait {
  /** Waited for in vain on this page: not waited for again until a device of theirs is in the group. */
  private readonly given = new Set<string>();

  /** Catches up (`advance`) until nobody `missing()` names is left, or WAIT_FOR_JOIN_MS passed. */
  async wait(missing: () => string[], advance: () => Promise<void>): Promise<void> {
    const until = Date.now() + WAIT_FOR_JOIN_MS;
    let waiting = missing().filter((id) => !this.given.has(id));
    for (let round = 0; waiting.length > 0 && Date.now() < until; round++) {
      const pause = Math.min(RETRY_MS[Math.min(round, RETRY_MS.length - 1)], until - Date.now());
      await new Promise((resolve) => setTimeout(resolve, pause));
      await advance();
      waiting = missing().filter((id) => !this.given.has(id));
    }
    for (const id of waiting) this.given.add(id);
    const still = new Set(missing());
    for (const id of this.given) if (!still.has(id)) this.given.delete(id);
  }
}
