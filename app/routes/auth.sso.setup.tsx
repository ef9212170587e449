import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ssoSetupAgain } from "~/features/sso/sso.server";
import { SsoCallback } from "~/features/sso/SsoCallback";

// A first sign-in's set-up, reloaded: the callback's address becomes this one once its one-time code is
// used (docs/decisions/0063-single-sign-on.md, addendum 2026-12-02).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { outcome, headers } = await ssoSetupAgain(request, context);
  return data({ outcome }, { headers });
}

export const meta: MetaFunction = () => [{ title: "Single sign-on - ChatCrypt" }];

export default function SsoSetupPage() {
  const { outcome } = useLoaderData<typeof loader>();
  return <SsoCallback outcome={outcome} />;
}
