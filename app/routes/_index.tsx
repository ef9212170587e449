import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChatApp } from "~/features/workspace/ChatApp";
import { passkeyOrigin, publicEnv } from "~/server/env.server";
import { pocketbaseFor } from "~/server/pocketbase.server";
import { destroyAuth } from "~/server/session.server";
import { loadSessionUser } from "~/features/auth/users.server";
import { commitCsrf } from "~/server/csrf.server";

// The single page of the product (spec §2): everything else happens in the browser through /api routes.
// The same page answers every conversation's address (routes/c.$.tsx, ADR 61): the loader does not
// read the address; what it names is the browser's to open.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const { pb, token, userId } = await pocketbaseFor(request, context);
  let user = null;
  if (token && userId) {
    try {
      user = await loadSessionUser(pb, userId);
    } catch {
      throw new Response("The chat server is not reachable right now.", { status: 503 });
    }
    if (!user) headers.append("Set-Cookie", await destroyAuth(request));
  }
  // The page's CSRF token is bound to the session it will use (csrf.server.ts).
  const [csrfToken, csrfCookie] = await commitCsrf(request, user ? token : null);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  return data({ csrfToken, user, passkeyOrigin: passkeyOrigin(), ...publicEnv() }, { headers });
}

// The CSRF token is also readable from the document, for scripts and tools that call the API.
export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: "ChatCrypt" },
  { name: "description", content: "End-to-end encrypted messaging" },
  { name: "csrf-token", content: loaded?.csrfToken ?? "" },
  // where passkeys are bound (features/passkeys/where.ts): the page offers them only there
  { name: "passkey-origin", content: loaded?.passkeyOrigin ?? "" },
];

export default function Index() {
  const { csrfToken, user, uploadMaxBytes, newsRefreshMs } = useLoaderData<typeof loader>();
  return <ChatApp csrfToken={csrfToken} initialUser={user} config={{ uploadMaxBytes, newsRefreshMs }} />;
}
