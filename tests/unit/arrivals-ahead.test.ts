import { afterEach, describe, expect, it, vi } from "vitest";
import { arrivalsAhead } from "~/features/workspace/arrivals-ahead";

// Live messages of a conversation the list does not have yet are kept until it does (a minute at most).
describe("messages that arrive before their conversation is listed", () => {
  afterEach(() => vi.useRealTimers());

  it("are handed back once their conversation is known, each once", () => {
    const ahead = arrivalsAhead<{ channelId: string; id: string }>();
    ahead.keep({ channelId: "dm", id: "m1" });
    ahead.keep({ channelId: "other", id: "m2" });
    expect(ahead.take((id) => id === "dm")).toEqual([{ channelId: "dm", id: "m1" }]);
    expect(ahead.take((id) => id === "dm")).toEqual([]);
    expect(ahead.take(() => true)).toEqual([{ channelId: "other", id: "m2" }]);
  });

  it("go after a minute, and no more than the limit are kept", () => {
    vi.useFakeTimers();
    const ahead = arrivalsAhead<{ channelId: string; id: string }>(2, 60_000);
    ahead.keep({ channelId: "left", id: "m1" });
    vi.advanceTimersByTime(61_000);
    expect(ahead.take(() => false)).toEqual([]);
    expect(ahead.take(() => true)).toEqual([]);
    for (const id of ["a", "b", "c"]) ahead.keep({ channelId: "dm", id });
    expect(ahead.take(() => true).map((m) => m.id)).toEqual(["b", "c"]);
  });
});
