import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { ssoBegin } from "~/features/sso/sso.server";
import { pbErrorMessage } from "~/server/pocketbase.server";

// "Sign in with <provider>": to the identity provider, the state kept in this browser's cookie.
export async function loader({ request, context }: LoaderFunctionArgs) {
  let begun: { url: string; cookie: string };
  try {
    begun = await ssoBegin(request, context);
  } catch (error) {
    throw new Response(pbErrorMessage(error) ?? "Single sign-on is not available right now.", { status: 503 });
  }
  return redirect(begun.url, { headers: { "Set-Cookie": begun.cookie, "Cache-Control": "no-store" } });
}
