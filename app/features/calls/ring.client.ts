/**
 * The live stream's call events (pocketbase/calls.go): a member's page joined or left a call. Each
 * one makes the "Call in progress" bar of that conversation ask again at once, and a direct call
 * started by someone else rings ("<name> is calling": Join or Decline) wherever the user is in the
 * app, unless this page is in that call already.
 */
import { useSyncExternalStore } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { activeCall } from "./store.client";
import { announcePresence } from "./calls.client";
import { currentRules } from "~/features/notify-rules/rules.client";
import { wantsNotification } from "~/features/notify-rules/rules";
import { emit, on } from "~/lib/events";

/** A conversation muted, set to "Nothing", paused or in the Do not disturb hours does not ring (the bar still offers to join). */
const rings = (channelId: string) =>
  wantsNotification(currentRules(), { conversationId: channelId, direct: true, mentioned: true }, new Date());

export interface CallEvent {
  channelId: string;
  userId: string;
  name: string;
  /**
   * "ended": the call's room emptied and its record was written (pocketbase/call_records.go);
   * "declined": a page of the member declined the ring.
   */
  event: "joined" | "left" | "ended" | "declined";
  ring: boolean;
}

export interface Ring {
  user: SessionUser;
  channel: Channel;
  caller: string;
  name: string;
}

let ringing: Ring | null = null;

function setRinging(next: Ring | null) {
  ringing = next;
  emit("call:ringing");
}

/** A call event for one of the user's conversations (`channel`), from the live stream. */
export function callArrived(user: SessionUser, channel: Channel, event: CallEvent) {
  emit("call:event", event.channelId);
  if (event.event === "ended") emit("call:ended", event.channelId);
  const inIt = activeCall()?.channel.id === channel.id;
  if (event.event === "declined") {
    if (event.userId !== user.id && inIt) emit("call:declined", event.name);
  } else if (event.event === "joined" && event.ring && event.userId !== user.id && !inIt && rings(channel.id)) {
    setRinging({ user, channel, caller: event.userId, name: event.name || channel.name });
    return;
  }
  const elsewhere = event.userId === user.id && (event.event === "joined" || event.event === "declined");
  if (ringing?.channel.id === channel.id && (inIt || elsewhere || (event.event === "left" && event.userId === ringing.caller))) {
    // answered here or on another of the user's devices, declined there, or the caller hung up before anyone answered
    setRinging(null);
  }
}

/** Declines the ring: it stops here, and the user's other pages and the caller's are told. */
export function declineRing() {
  const ring = ringing;
  setRinging(null);
  if (ring) announcePresence(ring.channel.id, "declined").catch((error: unknown) => console.warn("The decline could not be told", error));
}

/** Calls `listener` with the name of each person who declined the ring of the call this page is in. */
export const onCallDeclined = (listener: (name: string) => void) => on("call:declined", listener);

/** The ring now (outside React). */
export const currentRing = () => ringing;

/** Stops the ring (declined, answered, or timed out). */
export const stopRinging = () => setRinging(null);

/** Calls `listener` with the conversation of every call event. */
export const onCallEvent = (listener: (channelId: string) => void) => on("call:event", listener);

export const useRinging = () =>
  useSyncExternalStore(
    (listener) => on("call:ringing", listener),
    () => ringing,
    () => null,
  );

/** Calls `listener` with the conversation of every call that ended (its record written). */
export const onCallEnded = (listener: (channelId: string) => void) => on("call:ended", listener);
