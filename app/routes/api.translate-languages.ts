import type { LoaderFunctionArgs } from "@remix-run/node";
import { fail, jsonResponse, requireUser } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";

/**
 * The target languages the operator's translation engine can translate into (asked of the engine,
 * cached by PocketBase). `languages` is null when the engine cannot be asked right now: the page then
 * greys nothing and the translation itself reports.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  try {
    const { languages } = await pb.send<{ languages: string[] }>("/api/chat/translate/languages", { method: "GET" });
    return jsonResponse({ languages });
  } catch (error) {
    if (pbStatus(error) === 401) fail(401, "Not authenticated");
    return jsonResponse({ languages: null });
  }
}
