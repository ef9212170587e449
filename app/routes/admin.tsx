import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminConsole, ConsoleRefused } from "~/features/admin/AdminConsole";
import { CONSOLE_SIGN_IN } from "~/features/admin/return";
import { loadProfile } from "~/features/auth/users.server";
import { isAdminRole } from "~/features/roles/roles";
import { whoCanCreateChannels } from "~/features/roles/workspace-settings.server";
import { commitCsrf } from "~/server/csrf.server";
import { pocketbaseFor } from "~/server/pocketbase.server";
import { requireLiveSession } from "~/server/session-check.server";

// The admin console (docs/decisions/0055-admin-console.md). The role is checked here, on the server:
// a member or guest gets the refusal (403) and no data; every call of the console is checked again by
// PocketBase's hooks. Signed out: the sign-in page, which comes back here once signed in.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const { pb, token, userId } = await pocketbaseFor(request, context);
  if (!token || !userId) throw redirect(CONSOLE_SIGN_IN);
  try {
    await requireLiveSession(token, context);
  } catch {
    throw redirect(CONSOLE_SIGN_IN);
  }
  const profile = await loadProfile(pb, userId).catch(() => {
    throw new Response("The chat server is not reachable right now.", { status: 503 });
  });
  if (!profile) throw redirect(CONSOLE_SIGN_IN);
  const role = profile.role || "member";
  if (!isAdminRole(role)) return data({ allowed: false as const }, { status: 403, headers });
  const [csrfToken, csrfCookie] = await commitCsrf(request, token);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  const workspace = { whoCanCreateChannels: await whoCanCreateChannels(pb) };
  return data({ allowed: true as const, csrfToken, viewer: { id: userId, role }, username: profile.username, workspace }, { headers });
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: "Admin console - ChatCrypt" },
  { name: "csrf-token", content: loaded && loaded.allowed ? loaded.csrfToken : "" },
];

export default function Admin() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.allowed) return <ConsoleRefused />;
  return <AdminConsole {...loaded} />;
}
