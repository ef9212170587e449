// The encryption passphrase's strength meter and checks (app/features/sso/strength.ts): judged in the
// browser only, so these are the whole of what decides.
import { describe, expect, it } from "vitest";
import { newPassphraseProblem, passphraseStrength } from "~/features/sso/strength";

describe("passphrase strength", () => {
  it("calls short, repetitive or common passphrases weak and several unrelated words strong", () => {
    expect(passphraseStrength("short").label).toBe("Weak");
    expect(passphraseStrength("aaaaaaaaaaaaaaaaaaaa").label).toBe("Weak");
    expect(passphraseStrength("password1234").label).toBe("Weak");
    expect(["Strong", "Very strong"]).toContain(passphraseStrength("amber kettle orbit meadow 42").label);
    expect(passphraseStrength("Amber-Kettle-Orbit-Meadow-42!").score).toBe(3);
  });

  it("refuses a short, weak or mistyped passphrase with words the form shows", () => {
    expect(newPassphraseProblem("short", "short")).toBe("Your encryption passphrase must be at least 12 characters.");
    expect(newPassphraseProblem("aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaa")).toBe("This passphrase is too easy to guess: add more words.");
    expect(newPassphraseProblem("amber kettle orbit meadow 42", "amber kettle orbit meadow 43")).toBe("The two passphrases do not match.");
    expect(newPassphraseProblem("amber kettle orbit meadow 42", "amber kettle orbit meadow 42")).toBeNull();
  });
});
