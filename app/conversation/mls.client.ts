/**
 * A sealed channel or a direct conversation behind the conversation seam (types.ts): an MLS group on
 * this device (features/sealed), joined with `proof`; every message carries a fresh key of its own
 * for its files and previews, inside its MLS-encrypted, signed body.
 */
import { importItemKey, newItemKey } from "~/crypto";
import { on } from "~/lib/events";
import type { SessionUser } from "~/lib/session-user";
import { getChannelPassword } from "~/lib/storage.client";
import type { Channel } from "~/conversation/channels/types";
import { sealedChannel } from "~/conversation/mls/sealed.client";
import type { JoinProof } from "~/conversation/mls/types";
import type { ConversationCrypto } from "~/conversation/types";
import { waitsForKeysIn } from "~/conversation/senders/pin-state.client";

/** The MLS exporter label of call keys (ADR 30). */
const CALL_EXPORTER_LABEL = "chatcrypt call";

export function mlsConversation(user: SessionUser, channel: Channel, proof: JoinProof): ConversationCrypto {
  const runtime = () => sealedChannel(user, channel, proof);
  // (sealing and opening load with the runtime, which loads ts-mls: neither is in the first load)
  const withMessages = () => Promise.all([import("~/conversation/mls/messages.client"), runtime()]);
  return {
    facts: {
      kind: channel.direct ? "direct" : "sealed",
      forwardSecrecy: true,
      joinedBy: channel.direct ? "participant" : "password",
      verifiedBy: "signatures-and-leaves",
    },
    send: async (body, post) => {
      const [{ postSealed }, r] = await withMessages();
      return postSealed(r, body, post);
    },
    open: async (records, keysOf) => {
      const messages = await import("~/conversation/mls/messages.client");
      const r = await runtime().catch(async (error: unknown) => {
        // The group cannot be joined on this device now (a list signed with a participant's new keys, not
        // accepted yet): what the user's devices read of it is shown all the same; with nothing of it, the
        // failure, unless it is those keys: what waits for them is then counted (ADR 0051), not a failure
        const kept = await messages.openKept(user, channel, records, keysOf);
        if (kept.size === 0 && !waitsForKeysIn(channel.id)) throw error;
        return kept;
      });
      return r instanceof Map ? r : messages.openSealed(r, records, keysOf);
    },
    newItemKey: () => newItemKey(),
    contentKey: (itemKey) => (itemKey ? importItemKey(itemKey) : Promise.resolve(null)),
    // A sealed channel's device joins with the password; a direct conversation's needs none.
    canRead: () => Boolean(channel.direct) || Boolean(getChannelPassword(channel.id)),
    prepare: async (participants) => void (await sealedChannel(user, channel, proof, participants)),
    changeParticipants: async (change) => (await runtime()).changeParticipants(change),
    callKey: async (callId) => (await runtime()).exported(CALL_EXPORTER_LABEL, callId, true),
    // (the same checks as a call's key, on a context no call has: its secret is dropped)
    callReady: async () => void (await runtime()).exported(CALL_EXPORTER_LABEL, "", true),
    groupKey: async (label, context) => (await runtime()).exported(label, context),
    watchKeys(listener) {
      let stop: (() => void) | null = null;
      let stopped = false;
      // (a runtime that could not be opened has nothing to watch: the conversation's page says why)
      runtime().then(
        (r) => {
          if (stopped) return;
          let epoch = r.status.epoch;
          const unsubscribe = r.subscribe(() => {
            if (r.status.epoch === epoch && !r.status.removed) return;
            epoch = r.status.epoch;
            listener();
          });
          // (a commit nothing else here reads at once, a device joining by itself: a call's key follows it now)
          const unlisten = on("conversation:epoch", (event) => {
            if (event.channelId === channel.id && event.epoch !== r.status.epoch) void r.sync().catch(() => undefined);
          });
          stop = () => (unsubscribe(), unlisten());
        },
        () => undefined,
      );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
