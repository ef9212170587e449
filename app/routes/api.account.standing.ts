import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadSessionUser } from "~/features/auth/users.server";
import { fail, jsonResponse, requireUser } from "~/server/http.server";
import type { Standing } from "~/features/roles/roles";

/**
 * GET /api/account/standing: the caller's role and whether "New channel" is theirs, as the records say
 * now. An open page asks when the live stream says either changed (docs/decisions/0095-standing-live.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb, userId } = await requireUser(request, context);
  const user = await loadSessionUser(pb, userId).catch(() => fail(502, "Your account could not be read. Please try again."));
  if (!user) fail(401, "Not authenticated");
  const standing: Standing = { role: user.role, canCreateChannels: user.canCreateChannels };
  return jsonResponse(standing);
}
