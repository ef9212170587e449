import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChangeEmailPage } from "~/features/account-data/ChangeEmailPage";
import { emailLinkPageData } from "~/server/csrf-page.server";

// The page the email-change link opens: /change-email#token=... (ADR 29).
export const loader = ({ request, context }: LoaderFunctionArgs) => emailLinkPageData(request, context);

export const meta: MetaFunction = () => [{ title: "Change your email address - ChatCrypt" }];

export default function ChangeEmail() {
  const { csrfToken } = useLoaderData<typeof loader>();
  return <ChangeEmailPage csrfToken={csrfToken} />;
}
