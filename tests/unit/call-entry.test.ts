import { describe, expect, it } from "vitest";
import { callDuration, callEntryText } from "~/features/calls/entry";

describe("a call's line in its conversation", () => {
  it('says "less than a minute" under a minute and the nearest minute after (a one-minute call is not "0 min")', () => {
    expect(callDuration(0)).toBe("less than a minute");
    expect(callDuration(59_999)).toBe("less than a minute");
    expect(callDuration(-5)).toBe("less than a minute");
    expect(callDuration(60_000)).toBe("1 min");
    expect(callDuration(65_000)).toBe("1 min");
    expect(callDuration(89_000)).toBe("1 min");
    expect(callDuration(91_000)).toBe("2 min");
    expect(callDuration(12 * 60_000 + 59_000)).toBe("13 min");
    expect(callDuration(60 * 60_000)).toBe("1 h");
    expect(callDuration(65 * 60_000)).toBe("1 h 5 min");
  });

  it('reads "Call ended · N min" from the record\'s times as PocketBase stores them', () => {
    expect(callEntryText("2026-11-29 10:00:00.000Z", "2026-11-29 10:02:10.000Z")).toBe("Call ended · 2 min");
    expect(callEntryText("2026-11-29 10:00:00.000Z", "2026-11-29 10:00:42.000Z")).toBe("Call ended · less than a minute");
  });
});
