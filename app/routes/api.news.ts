import type { LoaderFunctionArgs } from "@remix-run/node";
import type { FeedResponse } from "~/features/news/feed";
import { fail, jsonResponse, requireUser } from "~/server/http.server";
import { pbStatus } from "~/server/pocketbase.server";

/** The news feed sidebar's items: fetched by PocketBase from the operator's feed (SSRF-guarded, cached). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  // ?check=1: only whether a feed is configured (nothing is fetched).
  const check = new URL(request.url).searchParams.get("check") === "1";
  try {
    return jsonResponse(await pb.send<FeedResponse>("/api/chat/news", { method: "GET", query: check ? { check: "1" } : {} }));
  } catch (error) {
    fail(pbStatus(error) === 401 ? 401 : 502, "The news feed could not be loaded.");
  }
}
