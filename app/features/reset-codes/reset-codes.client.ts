import { api } from "~/lib/api.client";

/** The administrator's console: a new reset code for this person. */
export const issueResetCode = (userId: string) =>
  api<{ code: string; expires: string }>(`/api/admin/people/${encodeURIComponent(userId)}/reset-code`, {});

/** Whether this server sends reset emails (the page says the way back before asking anything). */
export const resetByEmail = () => api<{ available: boolean }>("/api/auth/reset-options").then((a) => a.available);

/** The person's code: opens the reset page, as a reset email's link does (the token stays in the fragment). */
export async function openResetWithCode(email: string, code: string) {
  const { token } = await api<{ token: string }>("/api/auth/reset-code", { email: email.trim(), code: code.trim() });
  window.location.assign(`/reset-password#token=${encodeURIComponent(token)}`);
}
