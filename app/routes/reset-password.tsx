import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { commitCsrf } from "~/server/csrf.server";
import { pocketbaseFor } from "~/server/pocketbase.server";
import { ResetPassword } from "~/features/recovery/ResetPassword";

// The page the link in a password reset email opens: /reset-password#token=... The token stays in the
// fragment (browsers never send it with the page request); the page posts it to /api/auth/reset-password.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { token } = await pocketbaseFor(request, context);
  const [csrfToken, csrfCookie] = await commitCsrf(request, token);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return data({ csrfToken }, { headers });
}

export const meta: MetaFunction = () => [{ title: "Reset your password - ChatCrypt" }];

export default function ResetPasswordPage() {
  const { csrfToken } = useLoaderData<typeof loader>();
  return <ResetPassword csrfToken={csrfToken} />;
}
