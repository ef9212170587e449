import { newPasswordProblem } from "~/features/auth/form-checks";

/** The Password form's checks, in the browser, in the form's order: the first problem, or null. */
export function changePasswordProblem(values: { current: string; next: string; confirm: string }): string | null {
  if (!values.current) return "Current password is required.";
  if (!values.next) return "New password is required.";
  const problem = newPasswordProblem(values.next);
  if (problem) return problem;
  if (values.next !== values.confirm) return "The new passwords do not match.";
  if (values.next === values.current) return "The new password must be different from the current one.";
  return null;
}
