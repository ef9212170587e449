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

  const record = (started: string, ended: string) => ({ id: "r1", started, ended });

  it('reads "Call ended · N min" from the record\'s times as PocketBase stores them', () => {
    expect(callEntryText(record("2026-11-29 10:00:00.000Z", "2026-11-29 10:02:10.000Z"), "bob")).toBe("Call ended · 2 min");
    expect(callEntryText(record("2026-11-29 10:00:00.000Z", "2026-11-29 10:00:42.000Z"), "bob")).toBe("Call ended · less than a minute");
  });

  it('a call nobody answered: "Missed call from alice" for the others, "Call not answered" for its caller', () => {
    const missed = { ...record("2026-11-29 10:00:00.000Z", "2026-11-29 10:00:30.000Z"), unanswered: { caller: "alice1", name: "alice" } };
    expect(callEntryText(missed, "bob1")).toBe("Missed call from alice");
    expect(callEntryText(missed, "alice1")).toBe("Call not answered");
    expect(callEntryText({ ...missed, unanswered: { caller: "alice1", name: "" } }, "bob1")).toBe("Missed call");
  });

  it("a declined ring is the decliner's declined call, the caller's declined call, the others' missed call", () => {
    const declined = (...who: [string, string][]) => ({
      ...record("2026-11-29 10:00:00.000Z", "2026-11-29 10:00:30.000Z"),
      unanswered: { caller: "alice1", name: "alice", declined: who.map(([id, name]) => ({ id, name })) },
    });
    expect(callEntryText(declined(["bob1", "bob"]), "bob1")).toBe("Declined call from alice");
    expect(callEntryText(declined(["bob1", "bob"]), "alice1")).toBe("Call declined by bob");
    expect(callEntryText(declined(["bob1", "bob"], ["carol1", "carol"]), "alice1")).toBe("Call declined by bob and carol");
    expect(callEntryText(declined(["bob1", "bob"], ["carol1", "carol"], ["dave1", "dave"]), "alice1")).toBe(
      "Call declined by bob, carol and dave",
    );
    expect(callEntryText(declined(["bob1", "bob"]), "carol1")).toBe("Missed call from alice");
    // (a decliner whose name is not readable any more is left out; none left: not answered)
    expect(callEntryText(declined(["bob1", ""]), "alice1")).toBe("Call not answered");
  });
});
