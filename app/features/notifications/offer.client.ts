/**
 * The "Turn on notifications" offer (ADR 0067): never at sign-up, only once a message of someone else
 * arrives in a direct conversation or mentions the user, and only while this browser has not been
 * asked yet. Its state is kept per user in this browser: "due" once offered (it stays until answered),
 * "done" once turned on or dismissed (it never comes back).
 */
import { useSyncExternalStore } from "react";
import { emit, on } from "~/lib/events";

export type OfferState = "none" | "due" | "done";

const name = (userId: string) => `chatcrypt_notify_offer_${userId}`;

function read(userId: string): OfferState {
  try {
    const value = localStorage.getItem(name(userId));
    return value === "due" || value === "done" ? value : "none";
  } catch {
    return "none";
  }
}

function write(userId: string, state: OfferState) {
  try {
    localStorage.setItem(name(userId), state);
  } catch {
    // storage refused (a private window): the offer then lasts as long as the page
  }
  memory.set(userId, state);
  emit("notify-offer:changed");
}

// what the page decided, also when storage refuses to keep it
const memory = new Map<string, OfferState>();
const stateOf = (userId: string) => memory.get(userId) ?? read(userId);

/** A message that is for the user arrived (a direct message or a mention): the offer is due, unless answered before. */
export function offerDue(userId: string) {
  if (stateOf(userId) === "none") write(userId, "due");
}

/** Whether a message for the user would still make the offer due (it has been neither made nor answered). */
export const offerOpen = (userId: string) => stateOf(userId) === "none";

/** The offer was answered (turned on or dismissed): it does not come back. */
export const offerDone = (userId: string) => write(userId, "done");

export function useOffer(userId: string): OfferState {
  return useSyncExternalStore(
    (listener) => on("notify-offer:changed", listener),
    () => stateOf(userId),
    () => "none",
  );
}
