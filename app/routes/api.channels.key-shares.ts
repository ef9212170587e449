import type { LoaderFunctionArgs } from "@remix-run/node";
import { keyShares } from "~/features/channel-password/password.server";
import { jsonResponse, requireUser } from "~/server/http.server";

/** The caller's channel passwords sealed to them by a channel admin who changed one (ADR 0060). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return jsonResponse({ shares: await keyShares(pb) });
}
