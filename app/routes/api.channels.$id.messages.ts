import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse } from "~/server/http.server";
import { messagePage } from "~/features/messages/page.server";
import { postMessage } from "~/features/messages/post.server";

// (both are answered before Remix by app/fast-routes.server.ts; a HEAD request comes here)
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return jsonResponse(await messagePage(request, params, context));
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return jsonResponse(await postMessage(request, params, context));
}
