/**
 * The user's message archive (ADR 0048): what any of their devices read or sent in a sealed channel or
 * direct conversation, kept on the server for their other devices, each entry AES-GCM under the user's
 * vault key "archive" (derived from the account's own key pair, which every device of the user unlocks)
 * and bound to the user, conversation and message as associated data. Entries are sent in batches, off
 * the path of sending and reading; a device fetches a conversation's entries once, when it first opens it.
 *
 * A sender also keeps their own messages of a direct conversation for its other members (ADR 0099,
 * gifts.client.ts): entries sealed to each member's public key, which that member's devices open.
 *
 * Entries waiting to be sent are also kept in the browser's storage (sealed as they are) until the server
 * has them: a page reloaded or closed within the batch's wait sends them from its next load
 * (resumeArchive), and a page being hidden away sends them at once, with a request that outlives it.
 */
import { openGift } from "~/crypto";
import { vaultKey } from "~/conversation/keyring/vault.client";
import { api, ApiError } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import { openEntry, sealEntry } from "./entry";

/** How long entries wait to be sent together, and after a failed send. */
const BATCH_MS = 300;
const RETRY_MS = 5_000;
const MAX_ENTRIES = 100;
/** Under the web server's JSON limit (256 KiB) with room for the field names. */
const MAX_BATCH_CHARS = 200_000;

export interface Entry {
  userId: string;
  channelId: string;
  messageId: string;
  data: string;
  /** Another member of a direct conversation, for whom the user (the message's sender) keeps it. */
  forId?: string;
}

/** Under the browser's limit for a request that outlives its page (64 KiB in flight). */
const MAX_LEAVING_CHARS = 48_000;
const keptPrefix = (userId: string) => `chatcrypt.archive-pending.${userId}.`;
const keptName = (e: Entry) => `${keptPrefix(e.userId)}${e.channelId}.${e.messageId}${e.forId ? `.${e.forId}` : ""}`;

let queue: Entry[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;
let sending: Promise<void> = Promise.resolve();

/** One send after another; a failure never stops the ones after it. */
function send() {
  sending = sending.then(() => flush()).catch((error) => console.warn("The message archive could not be sent", error));
}

function schedule(delay: number) {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    send();
  }, delay);
}

/** Keeps an entry in storage until the server has it (storage full or unavailable: in memory only, as before). */
function keep(entry: Entry) {
  try {
    localStorage.setItem(keptName(entry), entry.data);
  } catch (error) {
    console.warn("An entry waiting for the message archive could not be kept", error);
  }
}

/** The server has these entries (or will never take them): storage lets them go. */
function forget(entries: readonly Entry[]) {
  for (const entry of entries) localStorage.removeItem(keptName(entry));
}

/** Queues what an earlier page of this user kept and could not send (reloaded or closed meanwhile). */
export function resumeArchive(userId: string) {
  const prefix = keptPrefix(userId);
  const queued = new Set(queue.map(keptName));
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (!name?.startsWith(prefix) || queued.has(name)) continue;
    const [channelId, messageId, forId] = name.slice(prefix.length).split(".");
    const data = localStorage.getItem(name);
    if (channelId && messageId && data) queue.push({ userId, channelId, messageId, data, ...(forId ? { forId } : {}) });
  }
  if (queue.length > 0) schedule(BATCH_MS);
}

/**
 * Sends what is queued, a conversation (and the person it is kept for) and at most MAX_ENTRIES at a time;
 * a failure that may pass is tried again later. `leaving`: the page is being hidden, and sends what fits
 * in requests that outlive it, all at once (the page may be gone before a first answer comes).
 */
async function flush(leaving = false) {
  const taken = queue;
  queue = [];
  if (!leaving) taking = taken;
  const left: Entry[] = [];
  const leavingSends: Promise<void>[] = [];
  let leavingChars = 0;
  while (taken.length > 0) {
    const batch = nextBatch(taken);
    const chars = batch.reduce((n, e) => n + e.data.length, 0);
    if (!leaving) await post(batch, left);
    else if (leavingChars + chars > MAX_LEAVING_CHARS)
      // (too large for now: it waits in storage for the next page)
      left.push(...batch);
    else {
      leavingChars += chars;
      leavingSends.push(post(batch, left, true));
    }
  }
  await Promise.all(leavingSends);
  if (left.length > 0) {
    queue = [...left, ...queue];
    if (!leaving) schedule(RETRY_MS);
  }
}

/** Takes from `taken` the first entry's conversation and person, at most MAX_ENTRIES and about MAX_BATCH_CHARS. */
function nextBatch(taken: Entry[]): Entry[] {
  const { userId, channelId, forId } = taken[0];
  const batch: Entry[] = [];
  let chars = 0;
  for (let i = 0; i < taken.length && batch.length < MAX_ENTRIES;) {
    const e = taken[i];
    const other = e.userId !== userId || e.channelId !== channelId || e.forId !== forId;
    if (other || (batch.length > 0 && chars + e.data.length > MAX_BATCH_CHARS)) {
      i++;
      continue;
    }
    batch.push(e);
    chars += e.data.length;
    taken.splice(i, 1);
  }
  return batch;
}

/** Batches sent the ordinary way and not answered yet: a page hidden meanwhile would take them with it. */
const unanswered = new Set<Entry[]>();
/** What the ordinary send under way has yet to send (one batch after another). */
let taking: Entry[] = [];

/** Sends one batch; what may go later is added to `left`. */
async function post(batch: Entry[], left: Entry[], leaving = false) {
  const { channelId, forId } = batch[0];
  if (!leaving) unanswered.add(batch);
  try {
    const entries = batch.map(({ messageId, data }) => ({ messageId, data }));
    await api(`/api/archive/${channelId}`, { entries, ...(forId ? { for: forId } : {}) }, { keepalive: leaving });
    forget(batch);
  } catch (error) {
    // Refused (signed out, no longer a member, a classic channel, `forId` gone from it): not for the archive.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) forget(batch);
    else left.push(...batch);
  } finally {
    unanswered.delete(batch);
  }
}

// The page is being hidden (a reload, the tab closed, the phone's app switcher): what waits goes now, in
// requests that outlive the page, and so do the batches of a send under way (the server keeps an entry
// once). At once, not after that send: the page may be gone before it is answered.
if (typeof window !== "undefined")
  window.addEventListener("pagehide", () => {
    if (timer) clearTimeout(timer);
    timer = null;
    // (the send under way stops after its batch: what it had left goes now)
    queue = [...[...unanswered].flat(), ...taking.splice(0), ...queue];
    if (queue.length > 0) flush(true).catch((error) => console.warn("The message archive could not be sent", error));
  });

/** Queues sealed entries to be sent together. */
export function enqueue(sealed: readonly Entry[]) {
  if (sealed.length === 0) return;
  queue.push(...sealed);
  for (const entry of sealed) keep(entry);
  schedule(BATCH_MS);
}

/** Queues what a device read or sent, for the user's other devices. */
export async function archive(userId: string, channelId: string, entries: ReadonlyMap<string, string>): Promise<void> {
  if (entries.size === 0) return;
  const key = await vaultKey(userId, "archive");
  const sealed = await Promise.all(
    [...entries].map(async ([messageId, plaintext]) => ({
      userId,
      channelId,
      messageId,
      data: await sealEntry(key, userId, channelId, messageId, plaintext),
    })),
  );
  enqueue(sealed);
}

/** Waits until everything queued so far was sent or given up (tests, sign-out). */
export async function archiveSent(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
    send();
  }
  await sending;
}

/**
 * Every entry of the user's archive of a conversation, opened; entries that do not open (altered, moved)
 * are left out. An entry a message's sender kept for the user holds the sender's signed plaintext, which
 * is checked against the sender's keys as it is shown, as any message.
 */
export async function restore(userId: string, channelId: string): Promise<Map<string, string>> {
  const key = await vaultKey(userId, "archive");
  const out = new Map<string, string>();
  for (let page = 1; ; page++) {
    const found = await api<{ entries: { messageId: string; data: string; gift?: boolean }[]; hasMore: boolean }>(
      `/api/archive/${channelId}?page=${page}`,
    );
    for (const { messageId, data, gift } of found.entries) {
      try {
        out.set(
          messageId,
          gift ? await opened(userId, channelId, messageId, data) : await openEntry(key, userId, channelId, messageId, data),
        );
      } catch {
        // not sealed by this user, or by its sender for them, for this message: not shown
      }
    }
    if (!found.hasMore) return out;
  }
}

/** An entry the message's sender kept for the user (ADR 0099). */
async function opened(userId: string, channelId: string, messageId: string, data: string) {
  const keys = await deviceKeys(userId);
  if (!keys) throw new KeysMissingError();
  return openGift({ memberId: userId, channelId, messageId, data, ecdhPrivateKey: keys.ecdhPrivateKey });
}
