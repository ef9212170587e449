import { afterEach, describe, expect, it, vi } from "vitest";
import { JoinWait, notJoined, WAIT_FOR_JOIN_MS } from "../../app/conversation/mls/joiners.client";
import { groupOf } from "./mls-group-of";

// A group conversation's message waits, a bounded time, for participants who accepted and whose devices
// have not joined the group yet (ADR 0052, addendum).
const alice = "aliceaaaaaaaaaa";
const bob = "bobbbbbbbbbbbbb";
const carol = "carolcccccccccc";
const dave = "daveddddddddddd";

describe("participants not joined yet", () => {
  it("are those on the list and members on the server with no device in the group, never the viewer", async () => {
    const { creator } = await groupOf([`${alice}:laptop01:p`, `${bob}:laptop01:p`]);
    // Carol accepted and has no device in the group; Dave is listed but has not accepted.
    expect(notJoined(creator, [alice, bob, carol, dave], [alice, bob, carol], alice)).toEqual([carol]);
    expect(notJoined(creator, [alice, bob], [alice, bob, carol], alice)).toEqual([]);
    expect(notJoined(creator, [alice, bob, carol], [alice, bob, carol], carol)).toEqual([]);
  });
});

describe("the wait", () => {
  afterEach(() => vi.useRealTimers());

  it("catches up until the missing participant's device is in the group", async () => {
    vi.useFakeTimers();
    let joined = false;
    let advances = 0;
    const advance = async () => {
      advances++;
      if (advances === 3) joined = true;
    };
    const done = new JoinWait().wait(() => (joined ? [] : [carol]), advance);
    await vi.advanceTimersByTimeAsync(WAIT_FOR_JOIN_MS);
    await done;
    expect(advances).toBe(3);
  });

  it("ends after a bounded time, and does not wait again for someone whose devices did not come", async () => {
    vi.useFakeTimers();
    const wait = new JoinWait();
    let advances = 0;
    const advance = async () => void advances++;
    const start = Date.now();
    const first = wait.wait(() => [carol], advance);
    await vi.advanceTimersByTimeAsync(WAIT_FOR_JOIN_MS + 1_000);
    await first;
    expect(Date.now() - start).toBeLessThanOrEqual(WAIT_FOR_JOIN_MS + 1_000);
    expect(advances).toBeGreaterThan(1);
    const before = advances;
    await wait.wait(() => [carol], advance);
    expect(advances).toBe(before);
    // Once she joined, a later absence of hers is waited for again.
    await wait.wait(() => [], advance);
    const again = wait.wait(() => [carol], advance);
    await vi.advanceTimersByTimeAsync(WAIT_FOR_JOIN_MS);
    await again;
    expect(advances).toBeGreaterThan(before);
  });
});
