import { describe, expect, it } from "vitest";
import { changePasswordProblem } from "~/features/password/form-checks";

describe("changePasswordProblem", () => {
  it("names the first problem in the form's order, with the sign-up form's password rule", () => {
    const ok = { current: "old password", next: "new password", confirm: "new password" };
    expect(changePasswordProblem(ok)).toBeNull();
    expect(changePasswordProblem({ ...ok, current: "" })).toBe("Current password is required.");
    expect(changePasswordProblem({ ...ok, next: "", confirm: "" })).toBe("New password is required.");
    expect(changePasswordProblem({ ...ok, next: "short", confirm: "short" })).toBe("Password must be at least 8 characters.");
    expect(changePasswordProblem({ ...ok, confirm: "new passwordx" })).toBe("The two passwords do not match.");
    expect(changePasswordProblem({ ...ok, next: ok.current, confirm: ok.current })).toBe(
      "The new password must be different from the current one.",
    );
  });
});
