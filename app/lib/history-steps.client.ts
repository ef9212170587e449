import { ADDRESS_EVENT } from "~/lib/address-event";

/**
 * The steps back the page takes itself to remove a history entry of its own (a phone's dialog or
 * panel closed by its own button takes away the entry it added: ui/useBackCloses). `history.back()`
 * completes later, as its own Back: a move made meanwhile (a channel left closes it, a channel created
 * opens) would be undone by it, and the step's Back is not a move of the person's. So a move waits for
 * the steps under way (`afterOwnSteps`). (The address does not follow them: a Back that stays at the
 * same address is no move, features/address.)
 */
let pending = 0;
let handling = false;
const waiting: (() => void)[] = [];
/** A step whose Back never came (the browser had no entry to go back to) is given up after this. */
const GIVE_UP_MS = 5_000;
let giveUp: ReturnType<typeof setTimeout> | undefined;
let listening = false;

function settle() {
  pending = 0;
  clearTimeout(giveUp);
  // (in order; a move that steps back itself leaves the rest waiting for that step)
  while (waiting.length > 0 && pending === 0) waiting.shift()!();
  uncoverCheck();
}

/** A Back came: when the page was waiting for one of its own steps, this is it; the moves waiting go once it has been handled. */
function onBack() {
  if (pending === 0) return;
  pending -= 1;
  handling = true;
  setTimeout(() => {
    handling = false;
    if (pending === 0) settle();
  });
}

/** The history state's key that marks an entry a dialog or panel added (its value names which). */
export const OWN_ENTRY = "chatcryptPanel";

/** The mark of the entry on top, when a dialog or panel added it. */
export const ownEntryOnTop = (): unknown => (window.history.state as Record<string, unknown> | null)?.[OWN_ENTRY];

/** Takes away the entry on top of history that the page added itself. */
export function stepBack() {
  if (!listening) {
    listening = true;
    // Back to one of the chat's addresses comes as the address event (root.tsx's early script stops
    // its popstate first); Back to any other address as popstate.
    window.addEventListener(ADDRESS_EVENT, onBack);
    window.addEventListener("popstate", onBack);
  }
  pending += 1;
  clearTimeout(giveUp);
  giveUp = setTimeout(settle, GIVE_UP_MS);
  window.history.back();
}

/** Whether a Back coming now is one of the page's own steps (a move taking a dialog's entry away), not the person's. */
export const ownStepUnderWay = (): boolean => pending > 0 || handling;

/** Runs a move in history now, or once the page's own steps back are done. */
export function afterOwnSteps(move: () => void) {
  if (pending === 0 && !handling) move();
  else waiting.push(move);
}

/** The marks of the dialogs and panels on the screen whose history entries the page added (ui/useBackCloses). */
const shown = new Set<string>();
/** The page's own moves waiting for those dialogs and panels to be answered (`whenUncovered`). */
const behind: (() => void)[] = [];

/** Whether a dialog or panel the page added an entry for is on the screen, its entry on top. */
export const covered = (): boolean => shown.has(ownEntryOnTop() as string);

/**
 * Forward to the entry of a dialog or panel closed since (Back closed it) brings nothing back: the
 * entry is taken away again, else the next Back would only leave it, changing nothing on the screen.
 */
let watchingStale = false;
function watchStale() {
  if (watchingStale) return;
  watchingStale = true;
  window.addEventListener(ADDRESS_EVENT, () =>
    // (after the event's own handlers: a Back closing a dialog has taken it off the screen)
    setTimeout(() => {
      const top = ownEntryOnTop();
      if (typeof top === "string" && !shown.has(top) && pending === 0 && !handling) stepBack();
    }),
  );
}

/** A dialog or panel whose entry is on top is shown (`true`) or gone (`false`). */
export function coverShown(mark: string, on: boolean) {
  watchStale();
  if (on) shown.add(mark);
  else {
    shown.delete(mark);
    uncoverCheck();
  }
}

/**
 * Runs a move the page makes on its own (an invite's channel opened on arrival) once no dialog or
 * panel covers the page: made at once, it would take their entry away and close them unanswered
 * (the recovery key offered at sign-up turned into "Continue without a recovery key?").
 */
export function whenUncovered(move: () => void) {
  behind.push(move);
  uncoverCheck();
}

function uncoverCheck() {
  if (behind.length === 0 || pending > 0 || handling || covered()) return;
  for (const move of behind.splice(0)) move();
}
