/**
 * A sender keeps their own messages of a direct conversation for its other members (ADR 0099): MLS
 * gives a message only to the devices in the group at its epoch, and a member whose devices there never
 * open it (a newcomer's sign-up page, closed, then another device first) would never read it; sealed to
 * each member's public key, it reaches their archive, which every device of theirs reads (ADR 0048).
 * Only the people on the conversation's list the sender's device trusts (ADR 0098: not someone who left
 * or was deactivated, nor someone back on the server's word alone, before being let back in), and only
 * under keys the sender trusts (pinned, or a first sight): a key the server presents in place of a
 * pinned one gets nothing.
 */
import { importEcdhPublicKey, sealGift } from "~/crypto";
import { checkKeys } from "~/conversation/senders/pins.client";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import type { Channel } from "~/conversation/channels/types";
import { enqueue } from "./archive.client";

const imported = new Map<string, Promise<CryptoKey>>();
const importOnce = (spki: string) => {
  if (!imported.has(spki)) imported.set(spki, importEcdhPublicKey(spki));
  return imported.get(spki)!;
};

/** Queues a message `userId` sent in a direct conversation for each of `others` (the other people on its trusted list). */
export async function keepForOthers(
  userId: string,
  channel: Channel,
  others: readonly string[],
  messageId: string,
  plaintext: string,
): Promise<void> {
  if (!channel.direct || others.length === 0) return;
  const profiles = [...(await senderProfiles([...others])).values()].flatMap((s) => (s && !s.profile.deleted ? [s.profile] : []));
  const trusted = await checkKeys(userId, profiles, channel.id);
  const sealed = await Promise.all(
    profiles
      .filter((p) => trusted.has(p.id))
      .map(async (p) => ({
        userId,
        channelId: channel.id,
        messageId,
        forId: p.id,
        data: await sealGift({
          memberId: p.id,
          channelId: channel.id,
          messageId,
          memberPublicKey: await importOnce(p.ecdhPublicKey),
          plaintext,
        }),
      })),
  );
  enqueue(sealed);
}
