// The product's words for approving a new device from a signed-in one (ADR 0059).

export const OPEN_OTHER_DEVICE =
  "Open ChatCrypt on a device where you are signed in and approve this one. Check that it shows the same code:";
export const EXPIRED = "This request expired. Start again.";
export const DENIED = "The request was denied.";
export const WAITING_FOR_CODE = "The code appears here as soon as your signed-in device shows this request.";
export const APPROVE_TITLE = "Approve a new device?";
export const APPROVE_ONLY_IF = "Approve only if the new device shows the same code. Approving gives it your encryption keys.";
export const NOT_OPENED = "The keys from your other device could not be opened here. Start again.";
/** How often the new device asks how its request stands. */
export const POLL_MS = 2000;
/** A request lives five minutes (pb_hooks/lib/device_link.js). */
export const LIFETIME_MS = 5 * 60 * 1000;
