import { describe, expect, it } from "vitest";
import { expiringText } from "~/features/retention/useExpiringCount";

describe("the console's count of what a shorter period deletes", () => {
  it("says none, one, or how many with thousands marked", () => {
    expect(expiringText(0)).toBe("No message is older than that now.");
    expect(expiringText(1)).toBe("1 message is older than that now.");
    expect(expiringText(2)).toBe("2 messages are older than that now.");
    expect(expiringText(12345)).toBe("12,345 messages are older than that now.");
  });
});
