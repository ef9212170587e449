import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { ApiError, api } from "~/lib/api.client";
import { useLinkToken } from "~/lib/useLinkToken";
import { emailLinkPageData } from "~/server/csrf-page.server";

// The page the link in a verification email opens: /verify-email#token=... The token stays in the
// fragment (browsers never send it with the page request); the page posts it to PocketBase's
// confirm-verification through /api/auth/confirm-verification.
export const loader = ({ request, context }: LoaderFunctionArgs) => emailLinkPageData(request, context);

export const meta: MetaFunction = () => [{ title: "Verify your email address - ChatCrypt" }];

type State = { kind: "working" } | { kind: "done" } | { kind: "failed"; message: string };

export default function VerifyEmail() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const [state, setState] = useState<State>({ kind: "working" });
  useLinkToken(csrfToken, (token) => {
    if (!token) {
      setState({ kind: "failed", message: "This verification link is incomplete. Open the link from the email again." });
      return;
    }
    api("/api/auth/confirm-verification", { token }).then(
      () => setState({ kind: "done" }),
      (error: unknown) =>
        setState({ kind: "failed", message: error instanceof ApiError ? error.message : "The email address could not be verified." }),
    );
  });

  return (
    <main className="loading">
      <div className="auth-card">
        <h1>Email verification</h1>
        {state.kind === "working" && <p role="status">Confirming your email address...</p>}
        {state.kind === "done" && <p role="status">Email address verified. Go back to ChatCrypt: email notifications can now reach you.</p>}
        {state.kind === "failed" && (
          <p className="form-error" role="alert">
            {state.message}
          </p>
        )}
        <a className="btn btn-primary" href="/">
          Open ChatCrypt
        </a>
      </div>
    </main>
  );
}
