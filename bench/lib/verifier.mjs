// How a simulated page verifies and decrypts a live message: on the bench's thread (`inThread`), or
// on a worker thread of its own (`Verifier`), as a real page does on its own thread. The latency phase
// uses the latter, so that the senders' POSTs, timed on the bench's thread, do not wait for other
// pages' crypto (bench/lib/delivery.mjs).
import { Worker } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { warmProfiles, verifyAndDecrypt } from "./chat.mjs";
import { clientCryptoFile } from "./crypto.mjs";

/** Verify + decrypt on the bench's thread, after the I/O callbacks already due; resolves { text, at }. */
export const inThread = (c, client, channel) => (message) =>
  new Promise((resolve) => setImmediate(resolve))
    .then(() => verifyAndDecrypt(c, client, channel, message))
    .then((text) => ({ text, at: performance.now() }));

export class Verifier {
  /** One worker thread with the client crypto bundled in `tmpDir` (loadClientCrypto). */
  constructor(tmpDir) {
    this.worker = new Worker(new URL("./verify-worker.mjs", import.meta.url), {
      workerData: { cryptoUrl: pathToFileURL(clientCryptoFile(tmpDir)).href },
    });
    this.pending = new Map();
    this.next = 0;
    this.worker.on("message", ({ id, text, at, error }) => {
      const waiter = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) waiter?.reject(new Error(error));
      else waiter?.resolve({ text, at: at - performance.timeOrigin });
    });
    this.worker.on("error", (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
    this.worker.unref();
  }

  /** The page's verify function for `channel`: the sender's key from the page's profile cache. */
  forPage(c, client, channel) {
    this.worker.postMessage({ channel: { id: channel.id, key: channel.key } });
    return async (message) => {
      if (!client.profiles?.has(message.senderId)) await warmProfiles(c, client, [message.senderId]);
      const senderKey = client.profiles.get(message.senderId).profile.rsaPublicKey;
      const id = this.next++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ id, message, senderKey });
      });
    };
  }

  close() {
    return this.worker.terminate();
  }
}
