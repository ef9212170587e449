/**
 * The call this page is in (at most one), for the header's button, the "Call in progress" bar and the
 * call window, which stays open while the user reads other conversations. Holds no media: the call
 * itself (LiveKit and the frame encryption) is loaded only when a call starts (CallDock.tsx).
 */
import { useSyncExternalStore } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { emit, on } from "~/lib/events";

export interface ActiveCall {
  user: SessionUser;
  channel: Channel;
  /** The page shows its camera, microphone level and device choice before it joins (PreJoin.tsx); an answered ring joins at once. */
  check: boolean;
}

let active: ActiveCall | null = null;
const changed = () => emit("call:changed");

/** Starts (or joins) the conversation's call, after the check of devices unless `check` is false; a call in another conversation is left first. */
export function startCall(user: SessionUser, channel: Channel, { check = true } = {}) {
  if (active?.channel.id === channel.id) return;
  active = { user, channel, check };
  changed();
}

/** The page leaves its call (the call window closes and disconnects). */
export function endCall() {
  if (!active) return;
  active = null;
  changed();
}

/** The page's call now (outside React). */
export const activeCall = () => active;

const subscribe = (listener: () => void) => on("call:changed", listener);

export const useActiveCall = () =>
  useSyncExternalStore(
    subscribe,
    () => active,
    () => null,
  );
