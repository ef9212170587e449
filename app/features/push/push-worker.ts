/// <reference lib="webworker" />
/**
 * The service worker's side of Web Push (pocketbase/push_send.go sends): a push carries a message's
 * ciphertext, never its text. The worker opens it with the keys this device keeps for it
 * (push-keys.ts): a classic channel's message, checked against its sender's signature, shows
 * "alice in #general" and its first 100 characters, as the page's own notifications do. Where it
 * cannot (an MLS conversation, whose state only the page may advance; keys gone after sign-out; a
 * message too large to travel whole), it says "New message in #general". A click opens the app at
 * the message, a thread's reply in its thread, a call in its conversation.
 */
import { decryptMessage } from "~/crypto";
import { decodeBody } from "~/conversation/messages/body";
import { messageLink } from "~/features/message-links/links";
import { HOME, pathOf } from "~/features/address/address";
import { notificationBody } from "~/features/notifications/notify";
import { readPushKeys } from "~/features/push/push-keys";

/** A thread root's id, as a message's. */
const THREAD_ROOT = /^[a-z0-9]{15}$/;

export interface PushPayload {
  v: 1;
  c: string;
  n: string;
  d?: boolean;
  mls?: boolean;
  m: string;
  s: string;
  u: string;
  t: string;
  r?: string;
  e?: string;
  /** "call": someone is calling in a direct conversation (no message: `m` and `e` are empty). */
  k?: "call";
}

const isPayload = (p: unknown): p is PushPayload =>
  typeof p === "object" &&
  p !== null &&
  (p as PushPayload).v === 1 &&
  ["c", "n", "m", "s", "u", "t"].every((k) => typeof (p as Record<string, unknown>)[k] === "string");

/** The text of a pushed message, opened on this device, or null when it cannot be. */
async function openText(p: PushPayload): Promise<string | null> {
  if (p.mls || !p.e) return null;
  const keys = await readPushKeys();
  const key = keys?.channels[p.c];
  const verifyKey = keys?.verify[p.s];
  if (!key || !verifyKey) return null;
  try {
    const body = decodeBody(await decryptMessage({ key, channelId: p.c, senderId: p.s, envelope: p.e, verifyKey }));
    return body.text || "Sent an attachment";
  } catch {
    return null;
  }
}

export const CALL_PUSH_BODY = "Open ChatCrypt to join the call.";

/** The notification a push shows: title, body, where a click leads. */
export async function notificationFor(p: PushPayload, origin: string) {
  // (a call opens its conversation, where the call is; a thread's reply opens its thread, as the page's own notifications do)
  const conversation = { ...HOME, conversationId: p.c };
  if (p.k === "call") return { title: `${p.u} is calling`, body: CALL_PUSH_BODY, url: origin + pathOf(conversation) };
  const place = p.d ? `@${p.u}` : `#${p.n}`;
  const text = await openText(p);
  const url =
    p.r && THREAD_ROOT.test(p.r)
      ? origin + pathOf({ ...conversation, thread: p.r })
      : messageLink(origin, { channelId: p.c, messageId: p.m });
  return text === null
    ? { title: `New message in ${place}`, body: "", url }
    : { title: `${p.u} in ${place}`, body: notificationBody(text), url };
}

export function installPushHandlers(sw: ServiceWorkerGlobalScope) {
  sw.addEventListener("push", (event) => {
    let payload: unknown = null;
    try {
      payload = event.data?.json();
    } catch {
      payload = null;
    }
    const shown = isPayload(payload)
      ? notificationFor(payload, sw.location.origin).then((n) =>
          sw.registration.showNotification(n.title, { body: n.body, tag: payload.c, data: { url: n.url } }),
        )
      : sw.registration.showNotification("ChatCrypt", { body: "New message" });
    event.waitUntil(shown);
  });

  sw.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = (event.notification.data as { url?: string } | null)?.url ?? "/";
    event.waitUntil(
      sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (windows) => {
        const open = windows.find((w) => new URL(w.url).origin === sw.location.origin);
        if (open) {
          await open.focus();
          await open.navigate(url).catch(() => undefined);
          return;
        }
        await sw.clients.openWindow(url);
      }),
    );
  });
}
