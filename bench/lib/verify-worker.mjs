// One verifying page's own thread (bench/lib/verifier.mjs): verifies and decrypts each live message
// with the client crypto, as the page's thread does, away from the thread where the bench's senders
// time their POSTs.
import { parentPort, workerData } from "node:worker_threads";

const c = await import(workerData.cryptoUrl);
const verifyKeys = new Map(); // a sender's RSA public key (as sent) -> the imported key
let channel = null;

parentPort.on("message", async ({ id, channel: next, message, senderKey }) => {
  if (next) return void (channel = next);
  try {
    if (message.channelId !== channel?.id) throw new Error("message of another channel");
    let verifyKey = verifyKeys.get(senderKey);
    if (!verifyKey) verifyKeys.set(senderKey, (verifyKey = await c.importRsaPublicKey(senderKey)));
    const text = await c.decryptMessage({
      key: channel.key,
      channelId: channel.id,
      senderId: message.senderId,
      envelope: message.encryptedContent,
      verifyKey,
    });
    parentPort.postMessage({ id, text, at: performance.timeOrigin + performance.now() });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
