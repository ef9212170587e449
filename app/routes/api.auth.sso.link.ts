import type { ActionFunctionArgs } from "@remix-run/node";
import { ssoLinkSchema } from "~/features/sso/validation";
import { readJson, requireCsrf, requirePost } from "~/server/http.server";
import { sessionFrom } from "~/features/sso/sso.server";

// Linking single sign-on to a password account: its password's login secret, once (the keys stay).
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const body = await readJson(request, ssoLinkSchema);
  return sessionFrom(request, context, "/api/chat/sso/link", { ticket: body.ticket, login_secret: body.loginSecret }, "Sign in failed");
}
