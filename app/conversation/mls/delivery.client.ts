/**
 * The delivery service of one sealed channel, as the page reaches it through the web server
 * (app/routes/api.sealed.$id.$op.ts, pb_hooks/mls.pb.js): commits in epoch order, one epoch's
 * messages, and the writes that can lose a race (409).
 */
import { api, ApiError } from "~/lib/api.client";
import type { EncryptedMessage } from "~/conversation/messages/types";
import type { GroupMark } from "./meta";

const EPOCH_PAGE = 500;
/** The most commits one answer carries (pb_hooks/mls.pb.js): fewer, and there were no more. */
export const COMMITS_PAGE = 100;

export type ChannelDelivery = ReturnType<typeof deliveryFor>;
/** One page of an epoch's messages; `hasMore`: the epoch holds more. */
export type EpochPage = { messages: EncryptedMessage[]; hasMore: boolean };

/** Each epoch's messages from `from` to `to` (the last: as it stood then), out of a complete page; none out of an incomplete one. */
export function byEpoch(page: EpochPage | undefined, from: number, to: number): Map<number, EncryptedMessage[]> {
  const epochs = new Map<number, EncryptedMessage[]>();
  if (page && !page.hasMore)
    for (let e = from; e <= to; e++)
      epochs.set(
        e,
        page.messages.filter((m) => (m.epoch ?? 0) === e),
      );
  return epochs;
}

export function deliveryFor(channelId: string) {
  const base = `/api/sealed/${channelId}`;
  return {
    /** The accepted commits from `epoch` on, in order, and which group is current (ADR 0049). */
    commitsSince(epoch: number) {
      return api<{ commits: { epoch: number; data: string }[]; group?: GroupMark }>(`${base}/commits?since=${epoch}`);
    },

    /**
     * commitsSince, and the messages of epoch `epoch` and every later one, read after them
     * (catch-up.server.ts): none when the channel has no group; `hasMore` when they fill more than a page.
     */
    catchUp(epoch: number) {
      return api<{ commits: { epoch: number; data: string }[]; group?: GroupMark; messages?: EpochPage }>(
        `${base}/commits?since=${epoch}&messages=1`,
      );
    },

    /**
     * A commit for `body.epoch`, answered with that epoch's messages as they stand once it is accepted;
     * null when another commit took the epoch first (409).
     */
    async commit(body: { epoch: number; commit: string; groupInfo: string }): Promise<{ messages?: EpochPage } | null> {
      try {
        return await api<{ messages?: EpochPage }>(`${base}/commits`, { ...body, messages: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return null;
        throw error;
      }
    },

    /** Which group is current, without commits (none is that far on). */
    async currentGroup(): Promise<GroupMark | undefined> {
      return (await this.commitsSince(999_999_999)).group;
    },

    /** The creator's new group replaces the channel's current one (ADR 0049). */
    reset(groupInfo: string) {
      return api<GroupMark & { epoch: number }>(`${base}/reset`, { groupInfo });
    },

    /** Every message (edits and reactions too) of one epoch, in the order they were stored. */
    async epochRecords(epoch: number): Promise<EncryptedMessage[]> {
      const out: EncryptedMessage[] = [];
      for (let page = 1; ; page++) {
        const found = await api<{ messages: EncryptedMessage[]; hasMore: boolean }>(
          `/api/channels/${channelId}/messages?epoch=${epoch}&limit=${EPOCH_PAGE}&page=${page}`,
        );
        out.push(...found.messages);
        if (!found.hasMore) return out;
      }
    },

    /** The GroupInfo to join from (after the password or participant check), or null when the channel has no group yet. */
    async groupInfo(proof: { verifier?: string }) {
      try {
        return await api<{ epoch: number; group_info: string }>(`${base}/group-info`, proof);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },

    /** A write ("group", "commits", "external-join"); false when another commit took the epoch first (409). */
    async write(op: "group" | "commits" | "external-join", body: Record<string, unknown>): Promise<boolean> {
      try {
        await api(`${base}/${op}`, body);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return false;
        throw error;
      }
    },
  };
}
