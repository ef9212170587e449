import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { ssoBegin } from "~/features/sso/sso.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";

// "Sign in with <provider>": to the identity provider, the state kept in this browser's cookie.
export async function loader({ request, context }: LoaderFunctionArgs) {
  let begun: { url: string; cookie: string };
  try {
    begun = await ssoBegin(request, context);
  } catch (error) {
    // 404 while single sign-on is not set up; 503 when PocketBase or the provider cannot answer
    const status = pbStatus(error) === 404 ? 404 : 503;
    throw new Response(pbErrorMessage(error) ?? "Single sign-on is not available right now.", { status });
  }
  return redirect(begun.url, { headers: { "Set-Cookie": begun.cookie, "Cache-Control": "no-store" } });
}
