import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHUNK, FanOut, MAX_INTERVAL_MS, SPACING, type FanOutSlot } from "../../app/features/live/fanout.server";

// How the web process writes live events to page streams (app/features/live/fanout.server.ts, ADR 13):
// one write per stream per fan-out, fan-outs spaced by their own cost, the same bytes shared by
// every stream that receives the same events.

interface Stream {
  channelId: string | null;
  writes: Uint8Array[];
  write(bytes: Uint8Array): void;
}

const frame = (text: string) => Buffer.from(`data: ${text}\n\n`);

/** A clock that each write advances by `perWrite` ms, standing in for the cost of a socket write. */
function setup(users: Record<string, (string | null)[]>, perWrite = 1) {
  let clock = 1000;
  const slots = new Map<string, FanOutSlot<Stream>[]>();
  const streams: Record<string, Stream[]> = {};
  for (const [user, channels] of Object.entries(users)) {
    streams[user] = channels.map((channelId) => ({
      channelId,
      writes: [] as Uint8Array[],
      write(bytes) {
        this.writes.push(bytes);
        clock += perWrite;
      },
    }));
    slots.set(
      user,
      streams[user].map((s) => FanOut.slot(s)),
    );
  }
  const fanOut = new FanOut<Stream>(() => clock);
  const slotsOf = (id: string) => slots.get(id);
  return { fanOut, streams, slotsOf, tick: (ms: number) => ((clock += ms), vi.advanceTimersByTime(ms)) };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

describe("live fan-out", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("writes an event to its recipients' streams at once when nothing was written before", () => {
    const { fanOut, streams, slotsOf } = setup({ alice: ["c1", null], bob: ["c2"], carol: ["c1"] });
    fanOut.queue(frame("m1"), null, ["alice", "bob", "nobody", 42], slotsOf);
    fanOut.schedule();
    expect(streams.alice.map((s) => s.writes.map(text))).toEqual([["data: m1\n\n"], ["data: m1\n\n"]]);
    expect(streams.bob[0].writes.map(text)).toEqual(["data: m1\n\n"]);
    expect(streams.carol[0].writes).toEqual([]);
  });

  it("sends a channel-scoped event only to streams open on that channel", () => {
    const { fanOut, streams, slotsOf } = setup({ alice: ["c1", null, "c2"] });
    fanOut.queue(frame("attachment"), "c1", ["alice"], slotsOf);
    fanOut.schedule();
    expect(streams.alice.map((s) => s.writes.length)).toEqual([1, 0, 0]);
  });

  it("holds the events that arrive during the spacing after a fan-out and writes them together, once per stream", () => {
    const { fanOut, streams, slotsOf, tick } = setup({ alice: ["c1"], bob: ["c1"], carol: ["c1"] }, 1);
    fanOut.queue(frame("m1"), null, ["alice", "bob", "carol"], slotsOf);
    fanOut.schedule(); // 3 writes of 1 ms: the next fan-out starts SPACING x 3 ms after this one did
    expect(streams.alice[0].writes).toHaveLength(1);

    fanOut.queue(frame("m2"), null, ["alice", "bob", "carol"], slotsOf);
    fanOut.schedule();
    fanOut.queue(frame("m3"), null, ["alice", "bob"], slotsOf);
    fanOut.schedule();
    expect(streams.alice[0].writes).toHaveLength(1);
    expect(fanOut.waiting).toBe(3);

    tick(SPACING * 3 - 3 - 1);
    expect(streams.alice[0].writes).toHaveLength(1);
    tick(1);
    expect(streams.alice[0].writes.map(text)).toEqual(["data: m1\n\n", "data: m2\n\ndata: m3\n\n"]);
    expect(streams.carol[0].writes.map(text)).toEqual(["data: m1\n\n", "data: m2\n\n"]);
    // Streams that receive the same events share one buffer.
    expect(streams.bob[0].writes[1]).toBe(streams.alice[0].writes[1]);
    expect(fanOut.waiting).toBe(0);
  });

  it("never holds events longer than the maximum interval after a fan-out began, however slow it was", () => {
    const { fanOut, streams, slotsOf, tick } = setup({ alice: ["c1"] }, 50);
    fanOut.queue(frame("m1"), null, ["alice"], slotsOf);
    fanOut.schedule(); // one write of 50 ms: SPACING x 50 ms would be over the maximum
    fanOut.queue(frame("m2"), null, ["alice"], slotsOf);
    fanOut.schedule();
    tick(MAX_INTERVAL_MS - 50 - 1);
    expect(streams.alice[0].writes).toHaveLength(1);
    tick(1);
    expect(streams.alice[0].writes).toHaveLength(2);
  });

  it("keeps the order and the right frames when streams get different events of one window", () => {
    const { fanOut, streams, slotsOf, tick } = setup({ alice: ["c1"], bob: ["c1"] }, 1);
    fanOut.queue(frame("first"), null, ["alice", "bob"], slotsOf);
    fanOut.schedule();
    for (let i = 0; i < 40; i++) fanOut.queue(frame(`e${i}`), null, i % 2 === 0 ? ["alice", "bob"] : ["alice"], slotsOf);
    fanOut.schedule();
    tick(MAX_INTERVAL_MS);
    const expected = (user: "alice" | "bob") =>
      Array.from({ length: 40 }, (_, i) => i)
        .filter((i) => user === "alice" || i % 2 === 0)
        .map((i) => `data: e${i}\n\n`)
        .join("");
    expect(text(streams.alice[0].writes[1])).toBe(expected("alice"));
    expect(text(streams.bob[0].writes[1])).toBe(expected("bob"));
  });

  it("joins a window's frames once for all the streams that get the same events, however many events it holds", () => {
    const users = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`u${i}`, ["c1"]]));
    const { fanOut, streams, slotsOf, tick } = setup({ ...users, late: ["c1"] }, 1);
    const everyone = Object.keys(users);
    fanOut.queue(frame("first"), null, everyone, slotsOf);
    fanOut.schedule();
    for (let i = 0; i < 100; i++) fanOut.queue(frame(`e${i}`), null, i === 0 ? everyone : [...everyone, "late"], slotsOf);
    fanOut.schedule();
    tick(MAX_INTERVAL_MS);
    const all = Array.from({ length: 100 }, (_, i) => `data: e${i}\n\n`);
    const shared = streams.u0[0].writes[1];
    expect(text(shared)).toBe(all.join(""));
    for (const u of everyone) expect(streams[u][0].writes[1]).toBe(shared);
    expect(text(streams.late[0].writes[0])).toBe(all.slice(1).join(""));
  });

  it("drops what was queued when cleared", () => {
    const { fanOut, streams, slotsOf, tick } = setup({ alice: ["c1"] }, 5);
    fanOut.queue(frame("m1"), null, ["alice"], slotsOf);
    fanOut.schedule();
    fanOut.queue(frame("m2"), null, ["alice"], slotsOf);
    fanOut.schedule();
    fanOut.clear();
    tick(MAX_INTERVAL_MS);
    expect(streams.alice[0].writes.map(text)).toEqual(["data: m1\n\n"]);
    fanOut.queue(frame("m3"), null, ["alice"], slotsOf);
    fanOut.schedule();
    expect(streams.alice[0].writes.map(text)).toEqual(["data: m1\n\n", "data: m3\n\n"]);
  });

  it("writes a large fan-out in chunks, other work in between, each stream's events in order", () => {
    const users = Object.fromEntries(Array.from({ length: CHUNK * 2 + 10 }, (_, i) => [`u${i}`, ["c1"]]));
    const { fanOut, streams, slotsOf } = setup(users, 0);
    const everyone = Object.keys(users);
    const written = () => everyone.filter((u) => streams[u][0].writes.length > 0).length;
    fanOut.queue(frame("m1"), null, everyone, slotsOf);
    fanOut.schedule();
    expect(written()).toBe(CHUNK);
    vi.advanceTimersToNextTimer();
    expect(written()).toBe(CHUNK * 2);
    vi.runAllTimers();
    for (const u of everyone) expect(streams[u][0].writes.map(text)).toEqual(["data: m1\n\n"]);
  });

  it("sends an event that arrives during a sweep with it to the streams not reached yet, and next to the others", () => {
    const users = Object.fromEntries(Array.from({ length: CHUNK * 2 + 10 }, (_, i) => [`u${i}`, ["c1"]]));
    const { fanOut, streams, slotsOf, tick } = setup({ ...users, late: ["c1"] }, 0.01);
    const everyone = Object.keys(users);
    fanOut.queue(frame("m1"), null, everyone, slotsOf);
    fanOut.schedule();
    fanOut.queue(frame("m2"), null, [...everyone, "late"], slotsOf); // arrives between two chunks
    fanOut.schedule();
    expect(fanOut.waiting).toBe(CHUNK * 2 + 10 + 1);
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    // the sweep reached every stream it had not written yet, and the one that joined it
    const passed = everyone.slice(0, CHUNK);
    const reached = everyone.slice(CHUNK);
    for (const u of reached) expect(streams[u][0].writes.map(text)).toEqual(["data: m1\n\ndata: m2\n\n"]);
    expect(streams.late[0].writes.map(text)).toEqual(["data: m2\n\n"]);
    for (const u of passed) expect(streams[u][0].writes.map(text)).toEqual(["data: m1\n\n"]);
    // those it had passed get m2 once, in the next sweep
    expect(fanOut.waiting).toBe(CHUNK);
    tick(MAX_INTERVAL_MS);
    vi.runAllTimers();
    for (const u of passed) expect(streams[u][0].writes.map(text)).toEqual(["data: m1\n\n", "data: m2\n\n"]);
    for (const u of reached) expect(streams[u][0].writes).toHaveLength(1);
    // the streams that got the same events share one buffer
    expect(streams[reached[1]][0].writes[0]).toBe(streams[reached[0]][0].writes[0]);
    expect(fanOut.waiting).toBe(0);
  });

  it("keeps each stream's order when events keep arriving during sweeps", () => {
    const users = Object.fromEntries(Array.from({ length: CHUNK * 3 }, (_, i) => [`u${i}`, [i % 2 ? "c1" : "c2"]]));
    const { fanOut, streams, slotsOf, tick } = setup(users, 0.01);
    const everyone = Object.keys(users);
    for (let i = 0; i < 30; i++) {
      fanOut.queue(frame(`e${i}`), i % 3 === 0 ? "c1" : null, i % 5 === 0 ? everyone.slice(0, CHUNK) : everyone, slotsOf);
      fanOut.schedule();
      if (i % 4 === 0) vi.advanceTimersToNextTimer();
      if (i % 7 === 0) tick(3);
    }
    tick(MAX_INTERVAL_MS * 10);
    vi.runAllTimers();
    everyone.forEach((u, k) => {
      const expected = Array.from({ length: 30 }, (_, i) => i)
        .filter((i) => (i % 3 !== 0 || k % 2 === 1) && (i % 5 !== 0 || k < CHUNK))
        .map((i) => `data: e${i}\n\n`)
        .join("");
      expect(streams[u][0].writes.map(text).join(""), u).toBe(expected);
    });
    expect(fanOut.waiting).toBe(0);
  });
});
