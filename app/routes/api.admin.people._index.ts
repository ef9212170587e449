import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPeople } from "~/features/admin/admin.server";
import { MAX_SEARCH } from "~/features/admin/validation";
import { fail, jsonResponse, requireUser } from "~/server/http.server";

/** GET /api/admin/people?q=: the console's People, by username or email (administrators only: the hook checks). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (query.length > MAX_SEARCH) fail(400, `The search is at most ${MAX_SEARCH} characters.`);
  return jsonResponse(await listPeople(pb, query));
}
