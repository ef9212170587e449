/**
 * Changing a classic channel's password (docs/decisions/0060-changing-the-channel-password.md): the channel
 * admin's page makes the new password's master (PBKDF2 once), seals it to every other member's identity key
 * and signs each share, sends the new join verifier with the shares, then keeps the old password beside the
 * new one in its own keyring entry. The server never sees either password.
 */
import { PBKDF2_ITERATIONS, deriveChannelMaster, importEcdhPublicKey, randomId, sealShare } from "~/crypto";
import { base64UrlEncode } from "~/crypto/bytes";
import { api } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { ChatError, KeysMissingError } from "~/lib/errors";
import { getChannelIterations, getChannelPassword, setChannelSecret } from "~/lib/storage.client";
import { passwordHistory, saveToKeyring } from "~/conversation/keyring/keyring.client";
import { adoptMaster, rememberOlder } from "~/conversation/channels/secrets.client";
import { sendersOf } from "~/conversation/senders/sender-keys.client";
import type { PasswordChangeStart } from "~/conversation/channels/password-types";

/** The shortest channel password the page accepts. */
export const MIN_CHANNEL_PASSWORD = 8;

/** A new random channel password (members never type it: their keyring gets it; invites carry it). */
export const generatePassword = () => randomId(24);

export async function changeChannelPassword(userId: string, channelId: string, password: string): Promise<{ invitesRevoked: number }> {
  if (password.length < MIN_CHANNEL_PASSWORD) throw new ChatError(`The password must be at least ${MIN_CHANNEL_PASSWORD} characters.`);
  if (password === getChannelPassword(channelId)) throw new ChatError("That is the channel's current password.");
  const keys = await deviceKeys(userId);
  if (!keys) throw new KeysMissingError();
  const start = await api<PasswordChangeStart>(`/api/channels/${channelId}/password`);
  const epoch = start.epoch + 1;
  const senders = await sendersOf(userId, start.members, channelId);
  const master = await deriveChannelMaster(password, channelId, PBKDF2_ITERATIONS);
  try {
    const { verifier } = await adoptMaster(channelId, password, PBKDF2_ITERATIONS, master);
    const secret = { p: password, i: PBKDF2_ITERATIONS, m: base64UrlEncode(master) };
    const shares = await Promise.all(
      start.members.map(async (member) => {
        const sender = senders.profiles.get(member);
        // a member whose keys are not the ones this user pinned could be the server's: nothing is sealed to them
        if (!sender || !senders.trusted.has(member)) {
          throw new ChatError(`The keys of ${sender?.profile.username ?? "a member"} changed: check them in the members panel first.`);
        }
        const data = await sealShare({
          channelId,
          fromId: userId,
          toId: member,
          epoch,
          ecdhPrivateKey: keys.ecdhPrivateKey,
          recipientPublicKey: await importEcdhPublicKey(sender.profile.ecdhPublicKey),
          signingKey: keys.rsaPrivateKey,
          secret,
        });
        return { userId: member, data };
      }),
    );
    const done = await api<{ epoch: number; invitesRevoked: number }>(`/api/channels/${channelId}/password`, { epoch, verifier, shares });
    // this device and the user's other devices (through the keyring) keep the old password for what was sent under it
    const current = getChannelPassword(channelId);
    const before = passwordHistory(userId, channelId);
    const older = [
      ...(current ? [{ p: current, i: getChannelIterations(channelId) ?? PBKDF2_ITERATIONS, e: start.epoch }] : []),
      ...before.older,
    ];
    if (current) {
      rememberOlder(channelId, older);
      setChannelSecret(channelId, password, PBKDF2_ITERATIONS);
      await saveToKeyring(userId, channelId, password, PBKDF2_ITERATIONS, master, { epoch, older }).catch((error) =>
        console.warn("The new channel password could not be saved to the keyring yet", error),
      );
    }
    return { invitesRevoked: done.invitesRevoked };
  } finally {
    master.fill(0);
  }
}
