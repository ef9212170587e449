// A page of the user's, as PocketBase sees one: a realtime connection subscribed to the messages
// topic. Pushes and notification mails skip a person with a page open (pocketbase/push_send.go).
import { EventSource } from "eventsource";
import { expect } from "vitest";

/** Opens the connection; answers the function that closes it. */
export async function openPage(url: string, token: string): Promise<() => void> {
  const live = new EventSource(`${url}/api/realtime`);
  const clientId = await new Promise<string>((resolve) => live.addEventListener("PB_CONNECT", (e) => resolve(JSON.parse(e.data).clientId)));
  const subscribed = await fetch(`${url}/api/realtime`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: token },
    body: JSON.stringify({ clientId, subscriptions: ["chatcrypt/messages"] }),
  });
  expect(subscribed.status).toBe(204);
  return () => live.close();
}
