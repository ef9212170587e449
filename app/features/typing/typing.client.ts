import { decryptText, encryptText } from "~/crypto";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import { emit, on, type Events } from "~/lib/events";

/**
 * Typing indicators: "alice is typing…" on the other members' open pages, through the live stream and
 * never stored (pocketbase/typing.go). Where the conversation has a key of its own (a classic
 * channel's), the event is sealed under it, bound to conversation and sender, with its time, so the
 * server can neither make one up nor replay an old one; in MLS conversations, whose keys are for
 * messages only, the event is the server's word (it knows who sends anyway). A page sends at most one
 * every few seconds while the user types, and none when the user turned them off.
 */
export type TypingEvent = Events["typing:arrived"];

const SEND_EVERY_MS = 3_000;
const FRESH_MS = 30_000;
const aad = (channelId: string, userId: string) => `chatcrypt:typing:v1:${channelId}:${userId}`;

let sendEnabled = true;
const lastSent = new Map<string, number>();

/** The user's setting "Send typing indicators" (private settings). */
export function setTypingPreference(enabled: boolean) {
  sendEnabled = enabled;
}

/** Called as the user types in a conversation: tells the others, now and then. */
export async function typing(user: SessionUser, channel: Channel): Promise<void> {
  const now = Date.now();
  if (!sendEnabled || now - (lastSent.get(channel.id) ?? 0) < SEND_EVERY_MS) return;
  lastSent.set(channel.id, now);
  const key = await conversationOf(user, channel).contentKey();
  const data = key ? await encryptText(key, JSON.stringify({ t: now }), aad(channel.id, user.id)) : "";
  await api(`/api/channels/${channel.id}/typing`, { data }).catch(() => undefined);
}

/** The live stream's typing events, for the indicator of the open conversation. */
export function typingArrived(event: TypingEvent) {
  emit("typing:arrived", event);
}

export const subscribeTyping = (listener: (event: TypingEvent) => void) => on("typing:arrived", listener);

/** A member's message arrived live: what they were typing was that (their indicator goes at once). */
export function typingEnded(channelId: string, userId: string) {
  emit("typing:ended", { channelId, userId });
}

/** Whether an event is genuine and recent: sealed by a holder of the conversation's key (where it has one), for this sender. */
export async function genuineTyping(user: SessionUser, channel: Channel, event: TypingEvent): Promise<boolean> {
  if (event.channelId !== channel.id || event.userId === user.id) return false;
  const key = await conversationOf(user, channel).contentKey();
  if (!key) return event.data === "";
  try {
    const { t } = JSON.parse(await decryptText(key, event.data, aad(channel.id, event.userId))) as { t?: unknown };
    return typeof t === "number" && Math.abs(Date.now() - t) < FRESH_MS;
  } catch {
    return false;
  }
}

/** "alice is typing…", "alice and bob are typing…", "Several people are typing…" */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are typing…`;
  return "Several people are typing…";
}
