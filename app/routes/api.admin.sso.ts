import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ssoSettingsSchema } from "~/features/sso/validation";
import { fail, jsonResponse, readJson, requireCsrf, requirePost, requireUser } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import type { SsoSettings } from "~/features/sso/types";

// The admin console's "Single sign-on" (administrators; "required" the owner's: the hook checks).
// GET: the settings, never the client secret. POST: changes (an empty secret keeps the one set).
async function forward(run: () => Promise<SsoSettings>) {
  try {
    return jsonResponse(await run());
  } catch (error) {
    const status = pbStatus(error);
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? "The settings could not be saved.");
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pb } = await requireUser(request, context);
  return forward(() => pb.send<SsoSettings>("/api/chat/admin/sso", { method: "GET" }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  await requireCsrf(request);
  const { pb } = await requireUser(request, context);
  const body = await readJson(request, ssoSettingsSchema);
  return forward(() => pb.send<SsoSettings>("/api/chat/admin/sso", { method: "POST", body }));
}
