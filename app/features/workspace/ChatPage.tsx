import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChatApp } from "~/features/workspace/ChatApp";
import type { pageLoader } from "~/features/workspace/page.server";

// The CSRF token is also readable from the document, for scripts and tools that call the API.
export const chatPageMeta: MetaFunction<typeof pageLoader> = ({ data: loaded }) => [
  { title: "ChatCrypt" },
  { name: "description", content: "End-to-end encrypted messaging" },
  { name: "csrf-token", content: loaded?.csrfToken ?? "" },
];

/** The one app shell, whichever address opened it: the address only tells it what to open. */
export function ChatPage() {
  const { csrfToken, user, uploadMaxBytes, newsRefreshMs } = useLoaderData<typeof pageLoader>();
  return <ChatApp csrfToken={csrfToken} initialUser={user} config={{ uploadMaxBytes, newsRefreshMs }} />;
}
