import type { LoaderFunctionArgs } from "@remix-run/node";
import { recentThreads } from "~/features/threads/threads.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/threads: recent threads of the user's conversations, for the Threads view (who and when only). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse(await recentThreads(pb));
}
