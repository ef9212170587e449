// A member that talks through the web server's API as the page does (the bench's client: the browser's
// own crypto bundled for Node, a cookie jar, the CSRF token), for tests that need many real messages
// in a channel quickly. What it posts is encrypted and signed exactly as a page would.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { joinChannel, postMessage, signUpFull } from "../../bench/lib/chat.mjs";
import { loadClientCrypto } from "../../bench/lib/crypto.mjs";

type ClientCrypto = Awaited<ReturnType<typeof loadClientCrypto>>;
let crypto: Promise<ClientCrypto> | undefined;
const clientCrypto = () => (crypto ??= loadClientCrypto(process.cwd(), mkdtempSync(path.join(os.tmpdir(), "chatcrypt-api-member-"))));

/** Signs up a new account and joins the channel with its password; `post` sends messages in order. */
export async function apiMember(channelId: string, password: string, baseUrl = process.env.E2E_BASE_URL!) {
  const c = await clientCrypto();
  const tag = randomBytes(4).toString("hex");
  const client = await signUpFull(c, baseUrl, { username: `api_${tag}`, email: `api.${tag}@example.test`, password: `pw-${tag}-${tag}` });
  const secrets = await c.deriveChannelSecrets(password, channelId, c.PBKDF2_ITERATIONS);
  const channel = { id: channelId, password, key: secrets.key, verifier: secrets.verifier };
  await joinChannel(client, channel);
  return {
    username: client.user.username as string,
    post: async (texts: string[]) => {
      for (const text of texts) await postMessage(c, client, channel, text);
    },
  };
}
