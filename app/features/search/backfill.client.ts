import type { SessionUser } from "~/lib/session-user";
import { conversationOf } from "~/conversation/conversation.client";
import type { Channel } from "~/conversation/channels/types";
import { fetchMessages } from "~/features/messages/messages.client";
import { decryptRecords } from "~/conversation/messages/open.client";
import type { EncryptedMessage, ThreadSummary } from "~/conversation/messages/types";
import { fetchThread } from "~/features/threads/fetch.client";
import type { SearchIndex } from "~/features/search/engine";
import { editsOf, toDoc } from "~/features/search/docs";

const PAGE = 200;
const CATCH_UP = 500;
/**
 * Pause between two pages of history: the backfill stays in the background, and its PocketBase
 * requests (a page and its edits: about five) stay far below the per-address limit (300 in 10 s).
 */
export const BACKFILL_PAUSE_MS = 1_000;

export interface BackfillRun {
  user: SessionUser;
  index: SearchIndex;
  channels: readonly Channel[];
  /** True while the user is typing: the backfill waits. */
  paused: () => boolean;
  /** True once this run is superseded (sign-out, another channel list). */
  stopped: () => boolean;
  /** After every page: progress and an incremental save. */
  onPage: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decrypts one page of records into the index (messages, then their edits in order). */
export async function indexRecords(user: SessionUser, index: SearchIndex, channel: Channel, records: EncryptedMessage[]) {
  const { messages, annotations } = await decryptRecords(user, channel, records);
  index.upsert(messages.map(toDoc));
  for (const edit of editsOf(annotations))
    index.edit(edit.targetId, { senderId: edit.senderId, text: edit.text ?? "", created: edit.created });
}

/** Between two threads' fetches of one page: a page of history holds up to 200 roots. */
const THREAD_PAUSE_MS = BACKFILL_PAUSE_MS / 5;

/** The replies in the page's threads: a reply that stays in its thread is not in the channel's flow. */
async function indexThreads(run: BackfillRun, channel: Channel, threads: readonly ThreadSummary[] | undefined) {
  for (const { root } of threads ?? []) {
    if (run.stopped()) return;
    // a thread gone meanwhile (its root deleted) or a failed request: the others are still read
    const thread = await fetchThread(channel.id, root).catch(() => null);
    if (thread) await indexRecords(run.user, run.index, channel, thread.messages);
    await sleep(THREAD_PAUSE_MS);
  }
}

const span = (records: EncryptedMessage[]) => {
  const flow = records.filter((r) => !r.kind);
  const created = flow.map((r) => r.created);
  // the page's oldest in the server's (created, id) order: the next page goes on below it
  const first = flow.reduce<EncryptedMessage | undefined>(
    (a, b) => (!a || b.created < a.created || (b.created === a.created && b.id < a.id) ? b : a),
    undefined,
  );
  return { oldest: first?.created, oldestId: first?.id, newest: created.reduce((a, b) => (a > b ? a : b), created[0]) };
};

/**
 * Pages through each channel's whole history, newest first, remembering per channel the oldest
 * message indexed so a later run goes on where this one stopped; a channel already complete only
 * fetches what arrived after its newest indexed message.
 */
export async function backfill(run: BackfillRun) {
  const { user, index } = run;
  const step = async () => {
    await run.onPage();
    do await sleep(BACKFILL_PAUSE_MS);
    while (run.paused() && !run.stopped());
  };
  for (const channel of run.channels) {
    if (run.stopped()) return;
    if (!conversationOf(user, channel).canRead()) continue;
    const chunk = index.chunk(channel.id);
    // Complete but empty when last looked at: start over (a first page is cheap).
    if (chunk.meta.complete && chunk.meta.newest === undefined) chunk.meta = { complete: false, total: 0 };
    while (chunk.meta.newest && !run.stopped()) {
      const result = await fetchMessages(channel.id, { after: chunk.meta.newest, limit: CATCH_UP });
      await indexRecords(user, index, channel, result.messages);
      await indexThreads(run, channel, result.threads);
      const { newest } = span(result.messages);
      const moved = newest !== undefined && newest > chunk.meta.newest;
      if (moved)
        chunk.meta = {
          ...chunk.meta,
          newest,
          total: chunk.meta.total + result.messages.filter((m) => !m.kind && m.created > chunk.meta.newest!).length,
        };
      index.dirty.add(channel.id);
      await step();
      if (!result.hasMore || !moved) break;
    }
    while (!chunk.meta.complete && !run.stopped()) {
      const first = chunk.meta.oldest === undefined;
      const result = await fetchMessages(channel.id, {
        before: chunk.meta.oldest,
        beforeId: chunk.meta.oldestId,
        limit: PAGE,
        count: first,
      });
      await indexRecords(user, index, channel, result.messages);
      await indexThreads(run, channel, result.threads);
      const { oldest, oldestId, newest } = span(result.messages);
      chunk.meta = {
        oldest: oldest ?? chunk.meta.oldest,
        oldestId: oldest ? oldestId : chunk.meta.oldestId,
        newest: first ? newest : chunk.meta.newest,
        complete: !result.hasMore || oldest === undefined,
        total: result.totalItems ?? chunk.meta.total,
      };
      index.dirty.add(channel.id);
      await step();
    }
  }
}
