/**
 * The MLS way into a new direct conversation (ADR 19): its creator's device claims one key package per
 * device of every participant (one-time packages first, the last-resort one after), checks each is
 * bound to that participant's pinned identity key, adds them all in one commit and sends the Welcome
 * with it; an added device joins from the Welcome made for one of its packages. A participant none of
 * whose devices has a package yet (signed up a moment ago) is waited for, a bounded time (ADR 0047). A
 * device with no usable package (or that missed the Welcome) still joins by external commit as a
 * listed participant.
 */
import type { ClientState, KeyPackage } from "ts-mls";
import { base64UrlDecode, base64UrlEncode } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { ChannelDelivery } from "./delivery.client";
import { credentialHolds, leafOwner } from "./identity";
import { deviceId, pinnedVerifyKey } from "./identity.client";
import { addProposal, commit, decodeKeyPackage, epochOf, groupInfo, join } from "./mls";
import { ownPackages, usedPackage } from "./packages.client";
import { copyState } from "./state";
import { setWaitingFor } from "./waiting";

const b64 = base64UrlEncode;
/** How long a new conversation waits for a participant none of whose devices has a key package yet. */
export const WAIT_FOR_DEVICE_MS = 10_000;
/** The pauses between claims while waiting (the last one repeats). */
const RETRY_MS = [250, 500, 1_000, 2_000];

/** The claimed key packages of one user's devices that are bound to their pinned identity key (`found`: how many the server had). */
async function claimFor(viewer: SessionUser, channelId: string, userId: string): Promise<{ found: number; packages: KeyPackage[] }> {
  const { key_packages } = await api<{ key_packages: { device: string; data: string }[] }>("/api/key-packages/claim", {
    userId,
    channelId,
  });
  const verifyKey = await pinnedVerifyKey(viewer, userId, channelId);
  if (!verifyKey) return { found: key_packages.length, packages: [] };
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
  return { found: key_packages.length, packages: out };
}

/**
 * One key package per device of every participant (the creator's other devices too). A participant
 * for whom the server has none yet is claimed again, after a pause, until one comes or
 * WAIT_FOR_DEVICE_MS passed; meanwhile the page says whom it is waiting for (waiting.ts).
 */
export async function claimParticipants(user: SessionUser, channelId: string, participants: readonly string[]): Promise<KeyPackage[]> {
  const claim = (ids: readonly string[]) => Promise.all(ids.map((id) => claimFor(user, channelId, id).catch(() => null)));
  const users = [...new Set([...participants, user.id])];
  const first = await claim(users);
  const packages = first.flatMap((c) => c?.packages ?? []);
  let missing = users.filter((id, i) => id !== user.id && first[i]?.found === 0);
  const until = Date.now() + WAIT_FOR_DEVICE_MS;
  try {
    for (let round = 0; missing.length > 0 && Date.now() < until; round++) {
      setWaitingFor(missing);
      const pause = Math.min(RETRY_MS[Math.min(round, RETRY_MS.length - 1)], until - Date.now());
      await new Promise((resolve) => setTimeout(resolve, pause));
      const again = await claim(missing);
      packages.push(...again.flatMap((c) => c?.packages ?? []));
      missing = missing.filter((_, i) => again[i]?.found === 0);
    }
  } finally {
    setWaitingFor([]);
  }
  return packages;
}

/**
 * Adds the devices of these claimed key packages (claimParticipants), with one commit and its Welcome.
 * Answers the state after it, or the state as it was when nothing was added (or another commit won).
 */
export async function welcomeParticipants(delivery: ChannelDelivery, state: ClientState, packages: KeyPackage[]): Promise<ClientState> {
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
