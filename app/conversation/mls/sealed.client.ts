/**
 * Sealed channels for the rest of the page, without ts-mls: the runtime (runtime.client.ts) is loaded
 * with a dynamic import the first time a sealed channel is used, so the first load does not carry it;
 * its messages are sealed and opened by messages.client.ts, loaded with it.
 */
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { SealedChannel } from "~/conversation/mls/runtime.client";
import { metaEntry, stateEntry } from "~/conversation/mls/meta";
import type { JoinProof } from "~/conversation/mls/types";

const runtimes = new Map<string, Promise<SealedChannel>>();

/**
 * A Join by the user: a device that a commit removed from this channel may join its group again. The
 * state it kept from before is let go too: followed, it would find the device removed again.
 */
export function allowRejoin(userId: string, channelId: string) {
  runtimes.delete(`${userId}:${channelId}`);
  localStorage.removeItem(metaEntry(userId, channelId));
  localStorage.removeItem(stateEntry(userId, channelId));
}

/** Leaving a conversation: this page forgets its runtime (what the device keeps stays, for a later return). */
export const dropRuntime = (userId: string, channelId: string) => void runtimes.delete(`${userId}:${channelId}`);

/** The channel's runtime on this device, one per user and channel for the page's life (loading ts-mls the first time). */
export function sealedChannel(
  user: SessionUser,
  channel: Channel,
  proof: JoinProof,
  participants?: readonly string[],
): Promise<SealedChannel> {
  const key = `${user.id}:${channel.id}`;
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = import("~/conversation/mls/runtime.client").then((m) => m.SealedChannel.open(user, channel, proof, participants));
    runtimes.set(key, runtime);
    const opening = runtime;
    runtime.catch(() => runtimes.get(key) === opening && runtimes.delete(key));
  }
  return runtime;
}

/**
 * A one-to-one started afresh by this page (ADR 0098): its runtime is the new group, opened once it is
 * made. Asked for meanwhile (the live events of the new group reach this page first), it is waited for:
 * an open of its own beside it would join the new group a second time and move its epochs under the
 * other person's first messages.
 */
export function startAfresh(user: SessionUser, channel: Channel, proof: JoinProof): Promise<SealedChannel> {
  const key = `${user.id}:${channel.id}`;
  const runtime = import("~/conversation/mls/afresh.client")
    .then((m) => m.startAfresh(user, channel, proof))
    .then(() => import("~/conversation/mls/runtime.client"))
    .then((m) => m.SealedChannel.open(user, channel, proof));
  runtimes.set(key, runtime);
  runtime.catch(() => runtimes.get(key) === runtime && runtimes.delete(key));
  return runtime;
}

/**
 * The conversation's creator reset its encryption (the live "group-reset"): a runtime this page holds
 * joins the new group now and shows the reset notice; a page without one finds the new group when it
 * opens the conversation.
 */
export function groupReset(userId: string, channelId: string) {
  runtimes
    .get(`${userId}:${channelId}`)
    ?.then((runtime) => runtime.sync())
    .catch((error) => console.warn("The conversation's new group could not be joined yet", error));
}
