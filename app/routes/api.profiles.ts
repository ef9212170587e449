import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { fail, jsonResponse, requireUser } from "~/server/http.server";
import { listProfiles } from "~/features/auth/users.server";

const idsSchema = z
  .array(z.string().regex(/^[a-z0-9]{15}$/))
  .min(1)
  .max(100);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  const raw = (new URL(request.url).searchParams.get("ids") ?? "").split(",").filter(Boolean);
  const ids = idsSchema.safeParse([...new Set(raw)]);
  if (!ids.success) fail(400, "ids must be 1 to 100 user ids separated by commas.");
  return jsonResponse({ profiles: await listProfiles(pb, ids.data) });
}
