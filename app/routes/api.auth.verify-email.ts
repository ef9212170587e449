import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type PocketBase from "pocketbase";
import { fail, jsonResponse, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";

export interface EmailVerificationStatus {
  email: string;
  verified: boolean;
}

/**
 * The signed-in user's address and whether it is verified (read fresh: the link may have been opened elsewhere).
 * An address typed at sign-up is pending until its link attaches it (docs/decisions/0082-pending-email-at-sign-up.md).
 */
async function verificationStatus(pb: PocketBase, userId: string): Promise<EmailVerificationStatus & { pending: boolean }> {
  try {
    const user = await pb
      .collection("users")
      .getOne<{ email: string; verified: boolean; pending_email?: string }>(userId, { fields: "email,verified,pending_email" });
    if (!user.email) return { email: user.pending_email ?? "", verified: false, pending: true };
    return { email: user.email, verified: Boolean(user.verified), pending: false };
  } catch (error) {
    if ([401, 403, 404].includes(pbStatus(error))) fail(401, "Not authenticated");
    fail(502, "The chat server is not reachable right now.");
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  const { email, verified } = await verificationStatus(pb, userId);
  return jsonResponse({ email, verified });
}

/**
 * Asks PocketBase to email a verification link to the signed-in user's own address (never to an
 * address from the request). The link opens /verify-email. PocketBase limits how often it sends one.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb, userId } = await requireUser(request, context);
  const { pending, ...status } = await verificationStatus(pb, userId);
  if (status.verified) return jsonResponse({ ...status, sent: false });
  try {
    if (pending) await pb.send("/api/chat/email-link", { method: "POST" });
    else await pb.collection("users").requestVerification(status.email);
  } catch (error) {
    const code = pbStatus(error);
    const message = pbErrorMessage(error);
    if (code === 429) {
      fail(
        429,
        message && !/^too many requests\.?$/i.test(message)
          ? message
          : "Please wait a few minutes before asking for another verification email.",
      );
    }
    if (code === 400) fail(400, message ?? "The verification email could not be sent.");
    fail(502, "The verification email could not be sent. Please try again.");
  }
  return jsonResponse({ ...status, sent: true });
}
