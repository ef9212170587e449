/**
 * Which implementation of the conversation seam (types.ts) a conversation has: the only place that
 * knows there are several. Everything that seals, opens or keys a message asks `conversationOf`.
 */
import { ChatError } from "~/lib/errors";
import { emit } from "~/lib/events";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { channelVerifier } from "~/conversation/channels/secrets.client";
import { allowRejoin, dropRuntime } from "~/conversation/mls/sealed.client";
import { classicConversation } from "~/conversation/classic.client";
import { mlsConversation } from "~/conversation/mls.client";
import type { JoinProof } from "~/conversation/mls/types";
import type { ConversationCrypto } from "~/conversation/types";

/** What this device shows the delivery service to join the conversation's MLS group. */
export function joinProofOf(channel: Channel): JoinProof {
  if (channel.direct) return () => Promise.resolve({});
  return async () => {
    const verifier = await channelVerifier(channel);
    if (!verifier) throw new ChatError("Channel password not found");
    return { verifier };
  };
}

export function conversationOf(user: SessionUser, channel: Channel): ConversationCrypto {
  return channel.sealed || channel.direct ? mlsConversation(user, channel, joinProofOf(channel)) : classicConversation(user, channel);
}

/** A Join by the user: a device that a commit removed from this conversation may join its group again. */
export function conversationJoined(userId: string, channelId: string) {
  allowRejoin(userId, channelId);
  emit("conversation:joined", channelId);
}

/** The user left a conversation: the page forgets its running state (a later return starts afresh). */
export const conversationLeft = (userId: string, channelId: string) => dropRuntime(userId, channelId);

/**
 * What a conversation added to the user's list needs of its crypto (useChannels' `ready`): a new one its
 * group; a one-to-one found again lists whoever had left in its group again (its list decides who may
 * join, so a device removed from a direct conversation needs no allowance); a joined channel lets this
 * device join its group again.
 */
export const conversationAdded =
  (user: SessionUser) =>
  async (channel: Channel, how: "created" | "joined", participants?: readonly string[]): Promise<void> => {
    // (a sealed channel made here has no participants: its group is made at once all the same)
    if (how === "created") return conversationOf(user, channel).prepare(participants ?? []);
    if (channel.direct) return participants && conversationOf(user, channel).changeParticipants({ add: participants });
    conversationJoined(user.id, channel.id);
  };
