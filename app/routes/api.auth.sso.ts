import type { LoaderFunctionArgs } from "@remix-run/node";
import { ssoConfig } from "~/features/sso/sso.server";
import { jsonResponse } from "~/server/http.server";

// Whether the sign-in screen offers "Sign in with <provider>", and whether password sign-in is refused.
export async function loader({ context }: LoaderFunctionArgs) {
  return jsonResponse(await ssoConfig(context));
}
