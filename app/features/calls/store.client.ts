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
  /** Which start this is (a call started again after one ended is a new window). */
  started: number;
  /** The call ended on this page (its window still says why until closed): the page is in no call. */
  ended?: boolean;
}

let active: ActiveCall | null = null;
let starts = 0;
const changed = () => emit("call:changed");

/** Starts (or joins) the conversation's call, after the check of devices unless `check` is false; a call in another conversation is left first. */
export function startCall(user: SessionUser, channel: Channel, { check = true } = {}) {
  if (active?.channel.id === channel.id && !active.ended) return;
  active = { user, channel, check, started: ++starts };
  changed();
}

/** The call ended on this page (the connection lost, the device removed, a key it may not share): its window stays to say why. */
export function callEnded(started: number) {
  if (active?.started !== started || active.ended) return;
  active = { ...active, ended: true };
  changed();
}

/** The page leaves its call (the call window closes and disconnects). */
export function endCall() {
  if (!active) return;
  active = null;
  changed();
}

/** The page's call now (outside React); none once it ended. */
export const activeCall = () => (active?.ended ? null : active);

const subscribe = (listener: () => void) => on("call:changed", listener);

/** The page's call; none once it ended. */
export const useActiveCall = () => useSyncExternalStore(subscribe, activeCall, () => null);

/** The call whose window is shown, ended or not. */
export const useShownCall = () =>
  useSyncExternalStore(
    subscribe,
    () => active,
    () => null,
  );
