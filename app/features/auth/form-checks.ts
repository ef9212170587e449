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
  const email = values.email.trim();
  if (!email) return "Email is required.";
  if (!EMAIL.test(email)) return "Please enter a valid email address.";
  if (!values.password) return "Password is required.";
  if (mode === "signup" && values.password.length < MIN_PASSWORD_LENGTH)
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  return null;
}
