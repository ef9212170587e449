import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ssoFinish } from "~/features/sso/sso.server";
import { SsoCallback } from "~/features/sso/SsoCallback";

// Where the identity provider sends the browser back (docs/decisions/0063-single-sign-on.md).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { outcome, headers } = await ssoFinish(request, context);
  return data({ outcome }, { headers });
}

export const meta: MetaFunction = () => [{ title: "Single sign-on - ChatCrypt" }];

export default function SsoCallbackPage() {
  const { outcome } = useLoaderData<typeof loader>();
  return <SsoCallback outcome={outcome} />;
}
