import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { packagesLeft, packagesSchema, uploadPackages } from "~/features/sealed/sealed.server";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";

// GET /api/key-packages?device=…: how many one-time key packages this device has left on the server.
// POST /api/key-packages {device, oneTime, lastResort}: more of them (the last-resort one replaced).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const device = new URL(request.url).searchParams.get("device") ?? "";
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(device)) fail(400, "device must be 8 to 64 letters, digits, - or _.");
  const { pb, userId } = await requireUser(request, context);
  return jsonResponse(await packagesLeft(pb, userId, device));
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  return jsonResponse(await uploadPackages(pb, await readJson(request, packagesSchema)));
}
