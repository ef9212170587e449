/**
 * The MLS way into a new direct conversation (ADR 19): its creator's device claims one key package per
 * device of every participant (one-time packages first, the last-resort one after), checks each is
 * bound to that participant's pinned identity key, adds them all in one commit and sends the Welcome
 * with it; an added device joins from the Welcome made for one of its packages. A device with no usable
 * package (or that missed the Welcome) still joins by external commit as a listed participant.
 */
import type { ClientState } from "ts-mls";
import { base64UrlDecode, base64UrlEncode } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import type { ChannelDelivery } from "./delivery.client";
import { credentialHolds, leafOwner } from "./identity";
import { deviceId, pinnedVerifyKey } from "./identity.client";
import { addProposal, commit, decodeKeyPackage, epochOf, groupInfo, join } from "./mls";
import { ownPackages, usedPackage } from "./packages.client";
import { copyState } from "./state";

const b64 = base64UrlEncode;

/** The claimed key packages of one user's devices that are bound to their pinned identity key. */
async function claimFor(viewer: SessionUser, channelId: string, userId: string) {
  const { key_packages } = await api<{ key_packages: { device: string; data: string }[] }>("/api/key-packages/claim", {
    userId,
    channelId,
  });
  const verifyKey = await pinnedVerifyKey(viewer, userId, channelId);
  if (!verifyKey) return [];
  const out = [];
  for (const claimed of key_packages) {
    if (userId === viewer.id && claimed.device === deviceId(viewer.id)) continue;
    try {
      const keyPackage = decodeKeyPackage(base64UrlDecode(claimed.data));
      const credential = keyPackage.leafNode.credential;
      if (credential.credentialType !== "basic" || leafOwner(credential.identity)?.userId !== userId) continue;
      if (await credentialHolds(credential.identity, keyPackage.leafNode.signaturePublicKey, verifyKey)) out.push(keyPackage);
    } catch {
      // not a key package of this user's: left out
    }
  }
  return out;
}

/**
 * Adds every device of the participants that has a key package, with one commit and its Welcome.
 * Answers the state after it, or the state as it was when nothing was added (or another commit won).
 */
export async function welcomeParticipants(
  user: SessionUser,
  channel: Channel,
  delivery: ChannelDelivery,
  state: ClientState,
  participants: readonly string[],
): Promise<ClientState> {
  const users = [...new Set([...participants, user.id])];
  const packages = (await Promise.all(users.map((id) => claimFor(user, channel.id, id).catch(() => [])))).flat();
  if (packages.length === 0) return state;
  const made = await commit(copyState(state), packages.map(addProposal));
  const accepted = await delivery.write("commits", {
    epoch: Number(epochOf(state)),
    commit: b64(made.commit),
    groupInfo: b64(await groupInfo(made.state)),
    ...(made.welcome ? { welcome: b64(made.welcome) } : {}),
  });
  return accepted ? made.state : state;
}

/** This device's state from a Welcome made for one of its key packages, or null when there is none. */
export async function joinFromWelcome(user: SessionUser, channel: Channel): Promise<ClientState | null> {
  const { welcomes } = await api<{ welcomes: { epoch: number; data: string }[] }>(`/api/sealed/${channel.id}/welcomes`);
  if (welcomes.length === 0) return null;
  const own = await ownPackages(user.id);
  for (const welcome of welcomes) {
    for (const { package: device, kept } of own) {
      try {
        const state = await join(base64UrlDecode(welcome.data), device);
        await usedPackage(user.id, kept);
        return state;
      } catch {
        // not made for this package
      }
    }
  }
  return null;
}
