import { useSyncExternalStore } from "react";
import { HOME, pathOf, placeOf, type Place } from "~/features/address/address";
import { ADDRESS_EVENT } from "~/lib/address-event";
import { afterOwnSteps, covered, ownEntryOnTop, stepBack, whenUncovered } from "~/lib/history-steps.client";
import { emit, followers, on } from "~/lib/events";

/**
 * The address bar as the page's one record of what is open (ADR 0061). Opening a conversation or a
 * thread pushes a history entry; Back and Forward come back as the event root.tsx's early script
 * dispatches (it keeps them from Remix's router, which would ask the server about the new address).
 * Nothing here makes a request.
 */
interface Snapshot {
  pathname: string;
  place: Place;
  /** A new number for every move, also to the same address (a message link followed twice). */
  move: number;
  /** How the page got there: opened at it, a move in the page, or Back/Forward. */
  how: "load" | "go" | "pop";
}

const SERVER: Snapshot = { pathname: "/", place: HOME, move: 0, how: "load" };
let snapshot: Snapshot = SERVER;

function read(): Snapshot {
  if (typeof window === "undefined") return SERVER;
  const { pathname } = window.location;
  if (snapshot.pathname !== pathname || snapshot === SERVER)
    snapshot = { pathname, place: placeOf(pathname), move: snapshot.move + 1, how: snapshot.how };
  return snapshot;
}

function moved(how: Snapshot["how"]) {
  snapshot = { ...snapshot, pathname: "", how };
  read();
  emit("address:moved");
}

// A Back that stays at the same address is no move: the page's own step back taking away a closed
// dialog's entry (lib/history-steps), or the person's Back closing a dialog or panel on a phone (its
// entry's address is the one under it). Only the dialog or panel follows it (ui/useBackCloses).
const popped = () => window.location.pathname === snapshot.pathname || moved("pop");

function subscribe(listener: () => void) {
  if (followers("address:moved") === 0) window.addEventListener(ADDRESS_EVENT, popped);
  const stop = on("address:moved", listener);
  return () => {
    stop();
    if (followers("address:moved") === 0) window.removeEventListener(ADDRESS_EVENT, popped);
  };
}

/** What the address names now, and the move that led there. */
export function useAddress(): Readonly<Snapshot> {
  return useSyncExternalStore(subscribe, read, () => SERVER);
}

export function currentPlace(): Place {
  return read().place;
}

/**
 * How a place is opened: `replace` changes the current entry rather than adding one; `behind`, a move
 * the page makes on its own (not the person's tap), waits for the dialogs and panels a phone shows
 * over the page to be answered rather than closing them.
 */
export interface Move {
  replace?: boolean;
  behind?: boolean;
}

/** Opens a place: a new history entry, or (replace) the current one changed. Nothing when it is already open. */
export function goTo(place: Place, how: Move = {}) {
  afterOwnSteps(() => go(place, how));
}

/** How many entries of dialogs or panels (one over another) a move takes away at most before it is made. */
const OWN_ENTRIES_MAX = 4;

function go(place: Place, how: Move, under = 0) {
  const path = pathOf(place);
  if (path === window.location.pathname) return window.location.search || window.location.hash ? keepPathOnly() : undefined;
  if (how.behind && covered()) return whenUncovered(() => go(place, how, under));
  // A phone's dialog or panel added the entry on top (ui/useBackCloses): it goes first (the dialog or
  // panel closes) and the move is made from the entry under it, which it would otherwise leave behind.
  if (ownEntryOnTop() && under < OWN_ENTRIES_MAX) {
    stepBack();
    return afterOwnSteps(() => go(place, how, under + 1));
  }
  if (how.replace) window.history.replaceState(window.history.state, "", path);
  // (the entry remembers where it was opened from: leaving it that way is a step back, backTo)
  else window.history.pushState({ chatcryptFrom: window.location.pathname }, "", path);
  moved("go");
}

/**
 * Back to a place: the step back in history when the open entry was opened from there in this page
 * (a phone's full-screen thread closed with its own Back, after which the system's Back leaves the
 * conversation rather than opening the thread again), else a move there in the same entry (the page
 * was loaded at the thread: the system's Back goes where it would have gone from there, never back
 * into the thread).
 */
export function backTo(place: Place) {
  afterOwnSteps(() => {
    const history = window.history.state as { chatcryptFrom?: string } | null;
    if (history?.chatcryptFrom === pathOf(place)) window.history.back();
    else go(place, { replace: true });
  });
}

/** The address without its query and fragment (an invite or a message link once read), in the same entry. */
export function keepPathOnly(path = window.location.pathname) {
  afterOwnSteps(() => {
    window.history.replaceState(window.history.state, "", path);
    moved("go");
  });
}
