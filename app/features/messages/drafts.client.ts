import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from "react";
import { dropDrafts, savedDrafts, saveDraft } from "~/features/messages/draft-store.client";
import { emit, on } from "~/lib/events";

/**
 * Each conversation's unsent text (ADR 0096): what was typed in one conversation stays with it when
 * another opens, and is there again on coming back; it never follows into the next conversation, where
 * Enter would send it to other people. Read from memory as the box renders; kept on this device too,
 * sealed (draft-store.client.ts), so a reload or a closed tab loses nothing. Sign-out forgets them.
 */
const drafts = new Map<string, string>();
/** The signed-in user whose drafts these are (null: nothing is saved). */
let owner: string | null = null;
/** What this page last saved, or read, of each draft on the device (a sent draft deletes only that). */
const stored = new Map<string, string>();
/** Drafts changed and not saved yet: saved one after the other, each with its latest text. */
const dirty = new Set<string>();
let saving: Promise<void> | null = null;
/** A sign-out's deletion of the saved drafts, which the next sign-in's reading waits for. */
let dropping: Promise<unknown> = Promise.resolve();
/** The user's other tabs of this browser, told what each sends (a draft one of them read goes with it). */
let tabs: BroadcastChannel | null = null;

let markRead: () => void = () => undefined;
/** Settles once the signed-in user's saved drafts are in memory. */
let read = new Promise<void>((resolve) => (markRead = resolve));

export const draftOf = (draftKey: string) => drafts.get(draftKey) ?? "";

export function keepDraft(draftKey: string, text: string) {
  if (draftOf(draftKey) === text) return;
  if (text) drafts.set(draftKey, text);
  else drafts.delete(draftKey);
  if (!owner) return;
  dirty.add(draftKey);
  void save();
}

/** Saves what changed, at once (a reload or a closed tab right after typing loses nothing). */
function save(): Promise<void> {
  saving ??= (async () => {
    for (let user = owner; user && user === owner && dirty.size > 0;) {
      const [draftKey] = dirty;
      dirty.delete(draftKey);
      const text = draftOf(draftKey);
      await saveDraft(user, draftKey, text, stored.get(draftKey)).then(
        () => (text ? stored.set(draftKey, text) : stored.delete(draftKey)),
        (error) => console.warn("A draft could not be saved", error),
      );
    }
  })().finally(() => {
    saving = null;
    if (owner && dirty.size > 0) void save();
  });
  return saving;
}

/** Reads the user's saved drafts into memory, once per sign-in; typed text already there wins. */
export function startDrafts(userId: string) {
  if (owner === userId) return;
  owner = userId;
  listenToTabs(userId);
  // (after a sign-out's deletion)
  void dropping
    .then(() => savedDrafts(userId))
    .then((saved) => {
      if (owner !== userId) return;
      for (const [draftKey, text] of saved) {
        stored.set(draftKey, text);
        if (!drafts.has(draftKey)) drafts.set(draftKey, text);
      }
    })
    .catch((error) => console.warn("Drafts could not be read", error))
    .finally(markRead);
}

/** Sign-out: memory cleared, and the user's saved drafts deleted from this device. */
export function forgetDrafts(): Promise<unknown> {
  const user = owner;
  owner = null;
  tabs?.close();
  tabs = null;
  dirty.clear();
  drafts.clear();
  stored.clear();
  read = new Promise<void>((resolve) => (markRead = resolve));
  const saved = saving ?? Promise.resolve();
  if (user) dropping = saved.then(() => dropDrafts(user)).catch((error) => console.warn("Drafts could not be deleted", error));
  return dropping;
}

/**
 * Text that has nowhere else to go (an edit whose message was deleted, a reply whose thread was):
 * added to the draft of `draftKey`, on a line of its own, and its box shows it.
 */
export function moveToDraft(draftKey: string, text: string) {
  const current = draftOf(draftKey);
  keepDraft(draftKey, current.trim() ? `${current.replace(/\s+$/, "")}\n${text}` : text);
  emit("draft:changed", draftKey);
}

/**
 * A draft was sent from this page: the user's other tabs drop it too where they hold it (read from
 * this device when it was saved here), so it is not offered, and sent, a second time.
 */
export function draftSent(draftKey: string, sent: string) {
  tabs?.postMessage({ draftKey, sent });
}

function listenToTabs(userId: string) {
  tabs?.close();
  tabs = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(`chatcrypt-drafts:${userId}`);
  if (tabs)
    tabs.onmessage = (event: MessageEvent<{ draftKey?: unknown; sent?: unknown }>) => {
      const { draftKey, sent } = event.data ?? {};
      if (typeof draftKey !== "string" || typeof sent !== "string" || !sent) return;
      if (draftOf(draftKey) !== sent) return;
      keepDraft(draftKey, "");
      emit("draft:changed", draftKey);
    };
}

/**
 * The box's text once `sent` has gone: empty, or what was typed after it while it was being sent
 * (another text typed meanwhile stays as it is).
 */
export const afterSent = (current: string, sent: string) =>
  current === sent ? "" : current.startsWith(sent) ? current.slice(sent.length).trimStart() : current;

/**
 * A box's text as its draft: kept on every change, starting from the draft of `draftKey` (again when
 * the key changes), and filled from this device's saved drafts once they are read if nothing was typed.
 */
export function useDraft(draftKey: string): [string, Dispatch<SetStateAction<string>>] {
  const [state, setState] = useState(() => ({ key: draftKey, text: draftOf(draftKey) }));
  let current = state;
  if (state.key !== draftKey) {
    current = { key: draftKey, text: draftOf(draftKey) };
    setState(current);
  }
  const setText = useCallback(
    (next: SetStateAction<string>) => setState((s) => ({ key: s.key, text: typeof next === "function" ? next(s.text) : next })),
    [],
  );
  useEffect(() => keepDraft(current.key, current.text), [current.key, current.text]);
  useEffect(
    () => on("draft:changed", (changedKey) => changedKey === draftKey && setState({ key: draftKey, text: draftOf(draftKey) })),
    [draftKey],
  );
  useEffect(() => {
    let live = true;
    void read.then(
      () => live && setState((s) => (s.key === draftKey && !s.text && draftOf(draftKey) ? { key: draftKey, text: draftOf(draftKey) } : s)),
    );
    return () => {
      live = false;
    };
  }, [draftKey]);
  return [current.text, setText];
}
