/**
 * This device's MLS state of one sealed channel, sealed for storage on the device (ADR 0015).
 * The state is encoded with ts-mls's binary group state codec and encrypted with AES-GCM under a key
 * that only the user's own key pair derives (vault purpose "sealed"), bound to the user and channel ids,
 * so a stored state cannot be read without the account's keys nor moved to another channel.
 * Receiver secrets of past epochs are never stored (forgetPastEpochs), like in memory.
 */
import { decodeGroupState, encodeGroupState, type ClientState } from "ts-mls";
import { base64Decode, base64Encode } from "~/crypto/bytes";
import { decryptBytes, encryptBytes } from "~/crypto";
import { CLIENT_CONFIG, forgetPastEpochs } from "./mls";

const aadFor = (userId: string, channelId: string) => `chatcrypt:sealed-state:v1:${userId}:${channelId}`;

/** Encrypts the state under the vault key, bound to the user and channel. */
export async function sealState(key: CryptoKey, userId: string, channelId: string, state: ClientState): Promise<string> {
  const encoded = encodeGroupState(forgetPastEpochs(state));
  try {
    return base64Encode(await encryptBytes(key, encoded, aadFor(userId, channelId)));
  } finally {
    encoded.fill(0);
  }
}

/** Opens what sealState produced; throws when it was altered, bound to another channel or undecodable. */
export async function openState(key: CryptoKey, userId: string, channelId: string, sealed: string): Promise<ClientState> {
  return decodeState(await decryptBytes(key, base64Decode(sealed), aadFor(userId, channelId)));
}

// The decoded state's secrets are views into these bytes: they must not be zeroed afterwards.
function decodeState(encoded: Uint8Array): ClientState {
  const decoded = decodeGroupState(encoded, 0);
  if (!decoded) throw new Error("openState: undecodable state");
  return { ...decoded[0], clientConfig: CLIENT_CONFIG };
}

/**
 * An independent copy of a state. Making a commit zeroes the secrets it consumed, which the state it was
 * made from shares; a device keeps a copy to fall back on when its commit is refused as stale.
 */
export const copyState = (state: ClientState): ClientState => decodeState(encodeGroupState(forgetPastEpochs(state)));
