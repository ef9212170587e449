import type { LoaderFunctionArgs } from "@remix-run/node";
import { unreadCounts } from "~/features/unread/unread.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** Unread counts of the caller's channels. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ unread: await unreadCounts(pb) });
}
