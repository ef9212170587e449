// What the sign-in screen says after a sign-out the server could not confirm (ADR 66): this device is
// signed out all the same (its keys are gone and its cookie cleared), but a copy of the session's
// token may still work until the server records the sign-out.
export const SIGN_OUT_UNCONFIRMED_MESSAGE =
  "You are signed out on this device, but the server could not confirm that your session has ended. When the server is back, sign this session out from another device (Account > Devices) to be sure.";
