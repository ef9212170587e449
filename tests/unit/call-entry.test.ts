import { describe, expect, it } from "vitest";
import { callEntryId, callEntryText } from "~/features/calls/entry";
import { UUID_PATTERN } from "~/features/channels/limits";

describe("a call's entry in its conversation", () => {
  it('reads "Call, N min, N people", whole minutes, "0 min" under a minute and "1 person" for one', () => {
    expect(callEntryText(12 * 60_000 + 59_000, 3)).toBe("Call, 12 min, 3 people");
    expect(callEntryText(42_000, 2)).toBe("Call, 0 min, 2 people");
    expect(callEntryText(60_000, 1)).toBe("Call, 1 min, 1 person");
    expect(callEntryText(-5, 2)).toBe("Call, 0 min, 2 people");
  });

  it("has one id per call, the same on every page, that the server takes as a message id", async () => {
    const a = await callEntryId("RM_abcdef123456");
    expect(a).toMatch(UUID_PATTERN);
    expect(await callEntryId("RM_abcdef123456")).toBe(a);
    expect(await callEntryId("RM_abcdef123457")).not.toBe(a);
  });
});
