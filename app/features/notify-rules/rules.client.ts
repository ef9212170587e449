import { api, ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ConversationRule, NotifyRules, QuietHours } from "~/features/notify-rules/rules";
import { compactRules, nextMuteEnd } from "~/features/notify-rules/mute";
import { emit, on } from "~/lib/events";

/**
 * The signed-in user's notification rules on this page (collection notify_rules through
 * /api/notify-rules): loaded once, changed optimistically and saved whole, one save at a time. The
 * page's own notifications read `currentRules()`; components follow `subscribeRules`.
 */
export interface RulesState {
  rules: NotifyRules;
  loaded: boolean;
}

const EMPTY: RulesState = { rules: { conversations: {} }, loaded: false };
const LOAD_FAILED = "Your notification choices could not be loaded. Please try again.";
const SAVE_FAILED = "Your notification choices could not be saved. Please try again.";

let owner = "";
let loading: Promise<void> | null = null;
let state: RulesState = EMPTY;
// What the server holds: each save starts from it, and a failed save goes back to it.
let confirmed: NotifyRules = EMPTY.rules;
let saving: Promise<unknown> = Promise.resolve();
let pending = 0;
let expiry: ReturnType<typeof setTimeout> | undefined;

function publish(next: Partial<RulesState>) {
  state = { ...state, ...next };
  emit("notify-rules:changed");
  // a mute that ends changes what is shown (the muted mark): tell the listeners then
  clearTimeout(expiry);
  const end = nextMuteEnd(state.rules, Date.now());
  if (end !== null) expiry = setTimeout(() => publish({}), Math.min(end - Date.now() + 50, 2 ** 31 - 1));
}

export const subscribeRules = (listener: () => void) => on("notify-rules:changed", listener);
export const rulesSnapshot = () => state;
export const currentRules = () => state.rules;

/** Reads the user's rules once per page (again after a failed attempt); never rejects: `loaded` says whether it worked. */
export function loadRules(userId: string): Promise<void> {
  if (owner !== userId) {
    owner = userId;
    loading = null;
    confirmed = EMPTY.rules;
    publish(EMPTY);
  }
  if (!loading) {
    const attempt = api<{ rules: NotifyRules }>("/api/notify-rules").then(({ rules }) => {
      if (owner !== userId) return;
      confirmed = rules;
      if (pending === 0) publish({ rules, loaded: true });
      else publish({ loaded: true });
    });
    const settled: Promise<void> = attempt.catch((error) => {
      console.warn("Could not load the notification choices", error);
      if (loading === settled) loading = null;
    });
    loading = settled;
  }
  return loading;
}

/** The rules changed elsewhere (another device of the user): read again, unless this page is saving its own. */
export function rulesChanged(userId: string): Promise<void> {
  if (owner !== userId || pending > 0) return Promise.resolve();
  loading = null;
  return loadRules(userId);
}

/** Applies `edit` at once on the page, then saves it over what the server holds. Throws our text on failure. */
function change(edit: (rules: NotifyRules) => NotifyRules): Promise<void> {
  const userId = owner;
  publish({ rules: edit(state.rules) });
  pending++;
  const run = saving
    .catch(() => undefined)
    .then(async () => {
      // never save over rules this page has not read: they would be lost
      await loadRules(userId);
      if (!state.loaded) throw new ChatError(LOAD_FAILED);
      const next = compactRules(edit(confirmed), Date.now());
      try {
        const { rules } = await api<{ rules: NotifyRules }>("/api/notify-rules", { rules: next });
        if (owner === userId) confirmed = rules;
      } catch (error) {
        throw new ChatError(error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : SAVE_FAILED);
      }
    })
    .finally(() => {
      pending--;
      if (pending === 0 && owner === userId) publish({ rules: confirmed });
    });
  saving = run;
  return run;
}

/** Sets a conversation's level or mute (undefined removes it); other fields stay. */
export function setConversationRule(conversationId: string, update: Partial<ConversationRule>): Promise<void> {
  return change((rules) => {
    const rule: ConversationRule = { ...rules.conversations[conversationId], ...update };
    for (const key of Object.keys(rule) as (keyof ConversationRule)[]) if (rule[key] === undefined) delete rule[key];
    return { ...rules, conversations: { ...rules.conversations, [conversationId]: rule } };
  });
}

/** Pauses every notification until `until` (ms since 1970), or resumes them (undefined). */
export function setPause(until: number | undefined): Promise<void> {
  return change(({ pausedUntil: _, ...rules }) => (until === undefined ? rules : { ...rules, pausedUntil: until }));
}

/** Saves the Do not disturb hours. */
export function saveQuietHours(quiet: QuietHours): Promise<void> {
  return change((rules) => ({ ...rules, quiet }));
}

/** The settings saved by `save`, and the Do not disturb hours when they changed, together. */
export async function alsoQuietHours(save: Promise<void>, quiet?: QuietHours): Promise<void> {
  await Promise.all([save, quiet && saveQuietHours(quiet)]);
}

/** The browser's time zone, which the Do not disturb hours are read in. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
