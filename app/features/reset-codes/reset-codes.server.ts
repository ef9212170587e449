import type PocketBase from "pocketbase";
import { callHook } from "~/server/hooks.server";

// Reset codes (docs/decisions/0062-reset-codes.md) on the web server: it passes the administrator's
// request and the person's code to PocketBase (pb_hooks/reset_codes.pb.js) and holds nothing.

/** An administrator's new one-time code for a person: XXXX-XXXX-XXXX, valid 24 hours. */
export const issueResetCode = (pb: PocketBase, userId: string) =>
  callHook<{ code: string; expires: string }>(
    pb,
    "/api/chat/admin/people/reset-code",
    { user_id: userId },
    "The reset code could not be made. Please try again.",
  );

/** The person's code, spent: a password reset token for /reset-password. */
export const redeemResetCode = (pb: PocketBase, email: string, code: string) =>
  callHook<{ token: string }>(
    pb,
    "/api/chat/password-reset/code",
    { email, code },
    "The reset code could not be checked. Please try again.",
  );
