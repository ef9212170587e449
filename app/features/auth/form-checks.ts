import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from "~/features/auth/limits";

export type AuthFormMode = "signin" | "signup";

// The form's own checks, in the browser only (the raw password never leaves it): the first problem,
// in the form's order, or null. Plain code rather than a schema library, which would otherwise be the
// largest part of the sign-in screen.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function authFormProblem(mode: AuthFormMode, values: { username: string; email: string; password: string }): string | null {
  if (mode === "signup") {
    const username = values.username.trim();
    if (!username) return "Username is required.";
    if (!USERNAME_PATTERN.test(username)) return "Username must be 3-32 characters: letters, digits, dot, dash or underscore.";
  }
  const emailIssue = emailProblem(values.email);
  if (emailIssue) return emailIssue;
  if (!values.password) return "Password is required.";
  if (mode === "signup" && values.password.length < MIN_PASSWORD_LENGTH)
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  return null;
}

/** The email field's problem, or null (also the "Forgot your password?" form's check). */
export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (!email) return "Email is required.";
  if (!EMAIL.test(email)) return "Please enter a valid email address.";
  return null;
}

/** A new password and its confirmation (the reset page): at least MIN_PASSWORD_LENGTH characters, both the same. */
export function newPasswordProblem(password: string, confirmation: string): string | null {
  if (!password) return "New password is required.";
  if (password.length < MIN_PASSWORD_LENGTH) return `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password !== confirmation) return "The two passwords do not match.";
  return null;
}
