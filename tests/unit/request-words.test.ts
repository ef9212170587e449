import { describe, expect, it } from "vitest";
import { signInRequestSchema } from "~/features/auth/validation";
import { forgotPasswordSchema } from "~/features/recovery/validation";
import { workspaceRetentionSchema } from "~/features/retention/validation";

// What a refused request says is a sentence of the product's, not the validation library's
// ("String must contain at most 254 character(s)", "Number must be less than or equal to 36500").
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("refused requests' words", () => {
  it("an overlong email address is an invalid one", () => {
    const email = `${"a".repeat(5000)}@example.test`;
    expect(firstMessage(signInRequestSchema.safeParse({ email, loginSecret: "x".repeat(43) }))).toBe("Please enter a valid email address.");
    expect(firstMessage(forgotPasswordSchema.safeParse({ email }))).toBe("Please enter a valid email address.");
  });

  it("a retention period past the longest says the longest", () => {
    expect(firstMessage(workspaceRetentionSchema.safeParse({ days: 1_000_000_000 }))).toBe("days must be at most 36500.");
    expect(firstMessage(workspaceRetentionSchema.safeParse({ days: -3 }))).toBe("days must be 0 or more.");
  });
});
