import type { LoaderFunctionArgs } from "@remix-run/node";
import { allInvites } from "~/features/invites/invites.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** Every invite of the workspace, for its owner and admins (the hook checks the role). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await allInvites(pb));
}
