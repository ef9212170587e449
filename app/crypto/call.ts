/**
 * A call's media key (docs/decisions/0030-calls-livekit.md), for a classic channel:
 *   callKey = HKDF-SHA256(callBase, salt = utf8(callId), info = "chatcrypt call key") -> 256 bits
 * where callBase comes from the channel password (channel.ts) and callId names one call (the call
 * server's id of the room, new for every call), so two calls of a channel never share a key. The
 * bytes go to LiveKit's frame encryption in the page, never to a server.
 */
import { LABELS } from "./constants";
import { utf8Encode } from "./bytes";
import { CryptoError, guard } from "./errors";
import { hkdfBits } from "./kdf";

export const CALL_KEY_BYTES = 32;

export async function deriveCallKey(callBase: CryptoKey, callId: string): Promise<Uint8Array> {
  const fn = "deriveCallKey";
  if (typeof callId !== "string" || callId.length === 0) throw new CryptoError(fn, "callId is required");
  return guard(fn, "derivation failed", () => hkdfBits(callBase, utf8Encode(callId), LABELS.callKey, CALL_KEY_BYTES * 8));
}
