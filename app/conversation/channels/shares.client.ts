/**
 * Receiving a channel's new password (docs/decisions/0060-changing-the-channel-password.md): a channel admin
 * sealed it to this user's identity key and signed it; each keyring sync opens the shares newer than the
 * keyring's entry, keeps the old password beside the new one (earlier messages stay readable) and saves the
 * entry, so the user's other devices read it from the keyring.
 */
import { PBKDF2_ITERATIONS, importEcdhPublicKey, openShare } from "~/crypto";
import { base64UrlEncode } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { getChannelIterations, getChannelPassword, setChannelSecret } from "~/lib/storage.client";
import { saveToKeyring, type KeyringChannel } from "~/conversation/keyring/keyring.client";
import { masterOf, type KeyringSecret, type OlderSecret } from "~/conversation/keyring/entry";
import { sendersOf } from "~/conversation/senders/sender-keys.client";
import type { KeyShare } from "~/conversation/channels/password-types";

const isSharedSecret = (value: unknown): value is Required<Pick<KeyringSecret, "p" | "i" | "m">> =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as KeyringSecret).p === "string" &&
  (value as KeyringSecret).p.length > 0 &&
  Number.isSafeInteger((value as KeyringSecret).i) &&
  (value as KeyringSecret).i >= PBKDF2_ITERATIONS &&
  typeof (value as KeyringSecret).m === "string";

/** The password the share holds, or null when it does not open, is not signed by its sender, or is not well formed. */
async function openOne(userId: string, share: KeyShare) {
  const keys = await deviceKeys(userId);
  if (!keys) return null;
  const senders = await sendersOf(userId, [share.from], share.channelId);
  const sender = senders.profiles.get(share.from);
  const verifyKeys = senders.keysOf(share.from).map((k) => k.key);
  if (!sender || verifyKeys.length === 0) return null;
  const secret = await openShare({
    channelId: share.channelId,
    fromId: share.from,
    toId: userId,
    epoch: share.epoch,
    ecdhPrivateKey: keys.ecdhPrivateKey,
    senderPublicKey: await importEcdhPublicKey(sender.profile.ecdhPublicKey),
    verifyKeys,
    share: share.data,
  });
  return isSharedSecret(secret) ? secret : null;
}

/** The channel's passwords before the share's: the keyring's (current first), or this device's cached one. */
function olderThan(channel: KeyringChannel | undefined, channelId: string, epoch: number): OlderSecret[] {
  if (channel) {
    const master = channel.master ? { m: base64UrlEncode(channel.master) } : {};
    return [{ p: channel.password, i: channel.iterations, ...master, e: channel.history.epoch }, ...channel.history.older];
  }
  const cached = getChannelPassword(channelId);
  return cached ? [{ p: cached, i: getChannelIterations(channelId) ?? PBKDF2_ITERATIONS, e: epoch - 1 }] : [];
}

/**
 * Adopts the shares newer than what the keyring holds for channels the user is in (`memberOf`): answers
 * the keyring's channels with those replaced by their new password (its master included).
 */
export async function adoptShares(userId: string, opened: KeyringChannel[], memberOf: readonly string[]): Promise<KeyringChannel[]> {
  const { shares } = await api<{ shares: KeyShare[] }>("/api/channels/key-shares");
  const members = new Set(memberOf);
  const byChannel = new Map(opened.map((c) => [c.channelId, c]));
  for (const share of shares) {
    const current = byChannel.get(share.channelId);
    if (!members.has(share.channelId) || share.epoch <= (current?.history.epoch ?? 0)) continue;
    try {
      const secret = await openOne(userId, share);
      const master = secret ? masterOf(secret) : null;
      if (!secret || !master) continue;
      const history = { epoch: share.epoch, older: olderThan(current, share.channelId, share.epoch) };
      setChannelSecret(share.channelId, secret.p, secret.i);
      await saveToKeyring(userId, share.channelId, secret.p, secret.i, master, history);
      current?.master?.fill(0);
      byChannel.set(share.channelId, { channelId: share.channelId, password: secret.p, iterations: secret.i, master, history });
    } catch (error) {
      console.warn("A channel's new password could not be opened", error);
    }
  }
  return [...byChannel.values()];
}
