// The product's words for passkeys that screens show before the passkey code loads.

/** Said when the passkey signed in but cannot open the keys itself (no PRF, or its copy does not open). */
export const PASSWORD_ONCE =
  "This passkey cannot unlock your encryption keys on its own. Enter your password once to unlock them on this device.";

/** Beside the password: the keys come from a signed-in device instead (docs/decisions/0059-device-approval.md). */
export const APPROVE_FROM_DEVICE = "Approve from another device";

const dayFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });

/** A PocketBase date ("2026-11-25 22:25:38.123Z") as a day, or "" when there is none. */
export function formatDay(value: string): string {
  const date = new Date(value.replace(" ", "T"));
  return value && !Number.isNaN(date.getTime()) ? dayFormat.format(date) : "";
}
