import { api } from "~/lib/api.client";
import { notificationBody, type PermissionState } from "~/features/notifications/notify";

const CLOSE_AFTER_MS = 8_000;

export function notificationPermission(): PermissionState {
  return typeof Notification === "undefined" ? "unsupported" : (Notification.permission as PermissionState);
}

export async function requestNotificationPermission(): Promise<PermissionState> {
  if (typeof Notification === "undefined") return "unsupported";
  try {
    return (await Notification.requestPermission()) as PermissionState;
  } catch {
    return notificationPermission();
  }
}

/**
 * A desktop notification: body = first 100 characters, closed after 8 s (spec §9). `tag`: a newer one
 * of the same conversation replaces it; a click brings the page to the front and calls `open`.
 */
export function showDesktopNotification(title: string, text: string, at?: { tag: string; open: () => void }): Notification | undefined {
  if (notificationPermission() !== "granted") return undefined;
  try {
    const notification = new Notification(title, { body: notificationBody(text), ...(at ? { tag: at.tag } : {}) });
    notification.onclick = () => {
      window.focus();
      notification.close();
      at?.open();
    };
    setTimeout(() => notification.close(), CLOSE_AFTER_MS);
    return notification;
  } catch (error) {
    console.warn("Could not show a notification", error);
    return undefined;
  }
}

/** Asks our server to email the signed-in user about a message; failures are only logged (spec §8). */
export function sendEmailNotification(p: {
  /** the message's id: each of the user's open pages asks, the server sends one mail */
  messageId: string;
  channelName: string;
  direct: boolean;
  senderUsername: string;
  mention: boolean;
  text: string | null;
}) {
  api("/api/notify-email", {
    // a direct conversation's name never goes to the server (ADR 50)
    ...(p.direct ? { channelName: p.senderUsername.slice(0, 100), direct: true } : { channelName: p.channelName.slice(0, 100) }),
    senderUsername: p.senderUsername.slice(0, 32),
    mention: p.mention,
    // (a record id, as the route checks: a message not yet stored, were there one, asks without it)
    ...(/^[a-z0-9]{15}$/.test(p.messageId) ? { messageId: p.messageId } : {}),
    ...(p.text === null ? {} : { messageContent: p.text.slice(0, 20_000) }),
  }).catch((error) => console.warn("Email notification failed", error));
}
