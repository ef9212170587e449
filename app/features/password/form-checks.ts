import { newPasswordProblem } from "~/features/auth/form-checks";

/**
 * The Password form's checks, in the browser, in the form's order: the first problem, or null. The new
 * password follows the same rule as on the reset page (at least 8 characters, typed twice the same).
 */
export function changePasswordProblem(values: { current: string; next: string; confirm: string }): string | null {
  if (!values.current) return "Current password is required.";
  const problem = newPasswordProblem(values.next, values.confirm);
  if (problem) return problem;
  if (values.next === values.current) return "The new password must be different from the current one.";
  return null;
}
