import { BaseKeyProvider } from "livekit-client";
import type { CallKey } from "~/conversation/types";

/** How many call keys a page keeps at once (LiveKit's keyring): the current epoch's and those just before. */
export const KEYRING_SIZE = 16;

/**
 * The call's frame keys for LiveKit's E2EE worker: one key shared by every participant (never a
 * participant's own), in the keyring slot of its MLS epoch, so that a new epoch's key replaces the
 * old one for sending while frames still on their way under the old one can be read.
 */
export class CallKeyProvider extends BaseKeyProvider {
  private current = -1;

  /** The MLS epoch (0 for a classic channel) of the key this page sends with; -1 before the first. */
  get epoch() {
    return this.current;
  }

  constructor() {
    // A shared key: a frame that does not decrypt is a participant with another key, never a reason to ratchet.
    super({ sharedKey: true, ratchetWindowSize: 0, failureTolerance: -1, keyringSize: KEYRING_SIZE });
  }

  /** Sets the key of `callKey.epoch` and sends with it from now on (nothing when that epoch's key is already set). */
  async setCallKey({ key, epoch }: CallKey): Promise<boolean> {
    if (epoch === this.current) return false;
    const material = await crypto.subtle.importKey("raw", key.slice(), "HKDF", false, ["deriveBits", "deriveKey"]);
    this.current = epoch;
    this.onSetEncryptionKey(material, undefined, epoch % KEYRING_SIZE);
    return true;
  }
}
