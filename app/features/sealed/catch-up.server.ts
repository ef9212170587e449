import type PocketBase from "pocketbase";
import type { MessagePage } from "~/conversation/messages/types";
import { listMessages } from "~/features/messages/messages.server";
import { commitsSince } from "~/features/sealed/sealed.server";

/**
 * What a device reads of an epoch before and after it commits, answered with the commits (ADR 0056): a
 * page that removes someone from many conversations at once sends one request per step instead of two.
 * (The browser keeps six connections to a server: each request it does not send is one less in the queue.)
 */
const EPOCH_PAGE = 500;

/** The messages of one epoch, or (`andLater`) of it and every later one (the first page: `hasMore` says whether the device must page on). */
export const epochPage = (pb: PocketBase, channelId: string, epoch: number, andLater = false): Promise<MessagePage> =>
  listMessages(pb, channelId, { epoch, andLater, limit: EPOCH_PAGE, page: 1 });

/**
 * The accepted commits from epoch `since` on, then the messages of epoch `since` and every later one:
 * read after the commits, so that the page holds every message of each epoch those commits ended (the
 * server takes messages for the current epoch only), and of the current one every message stored until
 * then. A channel with no group has none.
 */
export async function commitsWithMessages(pb: PocketBase, channelId: string, since: number) {
  const found = await commitsSince(pb, channelId, since);
  // (a channel with no group has no epochs to read)
  if (!found.group) return found;
  const page = await epochPage(pb, channelId, since, true);
  return { ...found, messages: { messages: page.messages, hasMore: page.hasMore } };
}

/**
 * After an accepted commit for `epoch`: the messages of that epoch, which the device reads with its state
 * from before (what arrived between its read and the commit). A failure here loses nothing: the commit
 * stands, and without them the device reads the epoch itself.
 */
export async function afterCommit(pb: PocketBase, channelId: string, epoch: number) {
  try {
    const page = await epochPage(pb, channelId, epoch);
    return { messages: { messages: page.messages, hasMore: page.hasMore } };
  } catch (error) {
    console.warn("An epoch's messages could not be read after its commit", error);
    return {};
  }
}
