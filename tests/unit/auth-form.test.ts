import { describe, expect, it } from "vitest";
import { authFormProblem } from "~/features/auth/form-checks";

describe("the sign-in and sign-up form's own checks", () => {
  const ok = { username: "alice_w", email: "alice@example.test", password: "long enough" };

  it("say the first problem, in the form's order, with the spec's words", () => {
    expect(authFormProblem("signup", ok)).toBeNull();
    expect(authFormProblem("signup", { ...ok, username: " " })).toBe("Username is required.");
    expect(authFormProblem("signup", { ...ok, username: "a!" })).toBe(
      "Username must be 3-32 characters: letters, digits, dot, dash or underscore.",
    );
    expect(authFormProblem("signup", { ...ok, email: "" })).toBe("Email is required.");
    expect(authFormProblem("signup", { ...ok, email: "not-an-address" })).toBe("Please enter a valid email address.");
    expect(authFormProblem("signup", { ...ok, password: "" })).toBe("Password is required.");
    expect(authFormProblem("signup", { ...ok, password: "short" })).toBe("Password must be at least 8 characters.");
  });

  it("ask only for email and a password to sign in", () => {
    expect(authFormProblem("signin", { username: "", email: "alice@example.test", password: "x" })).toBeNull();
    expect(authFormProblem("signin", { username: "", email: "alice@example.test", password: "" })).toBe("Password is required.");
  });
});
