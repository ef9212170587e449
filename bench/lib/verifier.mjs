// How a simulated page verifies and decrypts a live message: on the bench's thread (`inThread`), or
// on a worker thread of its own (`Verifier`), as a real page does on its own thread. The latency phase
// uses the latter, so that the other pages' events, parsed on the bench's thread, do not wait for
// these pages' crypto (bench/lib/delivery.mjs).
import { pathToFileURL } from "node:url";
import { warmProfiles, verifyAndDecrypt } from "./chat.mjs";
import { clientCryptoFile } from "./crypto.mjs";
import { WorkerCalls } from "./worker-calls.mjs";

/** Verify + decrypt on the bench's thread, after the I/O callbacks already due; resolves { text, at }. */
export const inThread = (c, client, channel) => (message) =>
  new Promise((resolve) => setImmediate(resolve))
    .then(() => verifyAndDecrypt(c, client, channel, message))
    .then((text) => ({ text, at: performance.now() }));

export class Verifier {
  /** One worker thread with the client crypto bundled in `tmpDir` (loadClientCrypto). */
  constructor(tmpDir) {
    this.calls = new WorkerCalls(
      new URL("./verify-worker.mjs", import.meta.url),
      { workerData: { cryptoUrl: pathToFileURL(clientCryptoFile(tmpDir)).href } },
      ({ text, at }) => ({ text, at: at - performance.timeOrigin }),
    );
  }

  /** The page's verify function for `channel`: the sender's key from the page's profile cache. */
  forPage(c, client, channel) {
    this.calls.worker.postMessage({ channel: { id: channel.id, key: channel.key } });
    return async (message) => {
      if (!client.profiles?.has(message.senderId)) await warmProfiles(c, client, [message.senderId]);
      const senderKey = client.profiles.get(message.senderId).profile.rsaPublicKey;
      return this.calls.call({ message, senderKey });
    };
  }

  close() {
    return this.calls.close();
  }
}
