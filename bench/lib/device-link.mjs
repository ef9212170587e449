// New device approval to full history (ADR 0059), for bench/direct.mjs: a user whose first device read
// and archived a one-to-one of 1,000 messages signs in on a new device by approving it from the first
// one. The new device starts a request and polls every 2 s as the page does; the first device takes it
// (its own ephemeral key, the code of both), seals its keys to the new device and approves; the new
// device opens them, and with them the conversation's whole archive (fetched, opened, every signature
// checked: bench/lib/archive.mjs). Measured from the Approve click to the history opened, so it holds
// the new device's wait for its next poll (0 to 2 s); the page's drawing is not in it.
import { WebClient } from "./web-client.mjs";
import { restore } from "./archive.mjs";

const POLL_MS = 2000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One approval: answers the total, the part until the keys were open, and the history's part. */
export async function approvalRun(c, baseUrl, reader, sender, channelId, count) {
  const device = new WebClient(baseUrl);
  await device.loadPage();
  const own = await c.newLinkKeyPair();
  const { id, secret } = await device.api("/api/auth/device-link", { identity: reader.user.email, deviceKey: own.publicKey });
  const answered = (async () => {
    for (;;) {
      const answer = await device.api("/api/auth/device-link/poll", { id, secret });
      if (answer.state !== "pending") return answer;
      await sleep(POLL_MS);
    }
  })();

  // the signed-in device: the request, taken with its own key, the code shown, then Approve
  const { requests } = await reader.api("/api/device-links");
  const link = requests.find((r) => r.id === id);
  if (!link) throw new Error("the signed-in device does not see the request");
  const approver = await c.newLinkKeyPair();
  await reader.api(`/api/device-links/${id}/claim`, { approverKey: approver.publicKey });
  await c.linkCode(id, link.deviceKey, approver.publicKey);
  const t0 = performance.now();
  const sealed = await c.sealForDevice(await c.exportKeyBundle(reader.keys), approver, { id, deviceKey: link.deviceKey });
  await reader.api(`/api/device-links/${id}/approve`, { approverKey: approver.publicKey, sealed });

  const answer = await answered;
  if (answer.state !== "approved") throw new Error(`the request ended ${answer.state}`);
  const stored = await c.openFromDevice(
    answer.sealed,
    own,
    { id, approverKey: answer.approverKey },
    {
      ecdh: answer.user.ecdhPublicKey,
      rsa: answer.user.rsaPublicKey,
    },
  );
  device.user = answer.user;
  device.keys = await c.importKeyBundle(stored);
  const keysMs = performance.now() - t0;
  const history = await restore(c, device, sender, channelId, count);
  return { total: performance.now() - t0, keysMs, historyMs: history.total };
}
