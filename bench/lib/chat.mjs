// What the page does, step for step (app/features/auth/auth.client.ts, app/features/messages/messages.client.ts), over a WebClient.
import { randomBytes } from "node:crypto";
import { WebClient } from "./web-client.mjs";

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");

/** Sign-up as app/features/auth/auth.client.ts does it: PBKDF2 login secret, new key bundle, wrapped private keys. */
export async function signUpFull(c, baseUrl, { username, email, password }) {
  const client = new WebClient(baseUrl);
  await client.loadPage();
  const id = c.randomId();
  const { loginSecret, master } = await c.deriveAccountSecrets(password, email, c.PBKDF2_ITERATIONS);
  const [bundle, wrapKey] = await Promise.all([c.generateKeyBundle(), c.deriveWrapKey(master, id)]);
  const [ecdhPublicKey, rsaPublicKey, encryptedEcdhPrivateKey, encryptedRsaPrivateKey] = await Promise.all([
    c.exportPublicKey(bundle.ecdhPublicKey),
    c.exportPublicKey(bundle.rsaPublicKey),
    c.wrapPrivateKey(bundle.ecdhPrivateKey, wrapKey, "ecdh", id),
    c.wrapPrivateKey(bundle.rsaPrivateKey, wrapKey, "rsa", id),
  ]);
  const { user } = await client.api("/api/auth/signup", {
    id,
    email,
    loginSecret,
    username,
    ecdhPublicKey,
    rsaPublicKey,
    encryptedEcdhPrivateKey,
    encryptedRsaPrivateKey,
    kdfIterations: c.PBKDF2_ITERATIONS,
  });
  client.user = user;
  client.keys = bundle;
  client.password = password;
  client.full = true;
  return client;
}

/**
 * A listening-only account for the capacity ramp: the same sign-up request, but without the client-side
 * PBKDF2 and key generation (a listener never signs; its wrapped keys are random bytes of the real size).
 */
export async function signUpListener(baseUrl, template, { username, email }, client = new WebClient(baseUrl)) {
  await client.loadPage();
  const id = Array.from(randomBytes(15), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
  const { user } = await client.api("/api/auth/signup", {
    id,
    email,
    loginSecret: b64url(randomBytes(32)),
    username,
    ecdhPublicKey: template.ecdhPublicKey,
    rsaPublicKey: template.rsaPublicKey,
    encryptedEcdhPrivateKey: b64url(randomBytes(template.wrappedEcdhBytes)),
    encryptedRsaPrivateKey: b64url(randomBytes(template.wrappedRsaBytes)),
    kdfIterations: 600_000,
  });
  client.user = user;
  client.full = false;
  return client;
}

/** Creates a channel as the page does: the verifier to the server, then the keyring entry (password, count, master). */
export async function createChannel(c, client, name, password) {
  const id = c.randomUuid();
  const master = await c.deriveChannelMaster(password, id, c.PBKDF2_ITERATIONS);
  const secrets = await c.channelSecretsFromMaster(master);
  await client.api("/api/channels", {
    id,
    name,
    verifier: secrets.verifier,
    ecdhPublicKey: client.user.ecdhPublicKey,
    kdfIterations: c.PBKDF2_ITERATIONS,
  });
  if (client.keys) {
    const keyringKey = await c.deriveVaultKey(client.keys.ecdhPrivateKey, client.keys.ecdhPublicKey, "keyring");
    const entry = JSON.stringify(c.keyringSecret(password, c.PBKDF2_ITERATIONS, master));
    await client.api("/api/keyring", { channelId: id, data: await c.encryptText(keyringKey, entry, c.keyringAad(client.user.id, id)) });
  }
  return { id, name, password, key: secrets.key, verifier: secrets.verifier };
}

export async function joinChannel(client, channel) {
  return client.api("/api/channels/join", { channelId: channel.id, verifier: channel.verifier, ecdhPublicKey: client.user.ecdhPublicKey });
}

/** The iv of an envelope (the bench's key for a message), or null when it is not one. */
export function ivOf(envelope) {
  try {
    return JSON.parse(envelope).iv;
  } catch {
    return null;
  }
}

/**
 * postEnvelope: encrypt, sign, POST. Returns the envelope's iv (the bench's message key) and the answer.
 * With `annotation` ({ kind: "edit", targetId, text } or { kind: "reaction", targetId, emoji }) it posts
 * an edit or a reaction the way the page does.
 */
export async function postMessage(c, client, channel, text, annotation) {
  const body = !annotation
    ? text
    : c.encodeBody(
        annotation.kind === "edit"
          ? { text, files: [], edits: annotation.targetId }
          : { text: "", files: [], reactsTo: annotation.targetId, reaction: annotation.emoji },
      );
  const envelope = await c.encryptMessage({
    key: channel.key,
    channelId: channel.id,
    senderId: client.user.id,
    plaintext: body,
    signingKey: client.keys.rsaPrivateKey,
  });
  const iv = JSON.parse(envelope).iv;
  const sentAt = performance.now();
  const { message } = await client.api(`/api/channels/${channel.id}/messages`, {
    encryptedContent: envelope,
    senderPublicKey: client.user.ecdhPublicKey,
    ...(annotation ? { kind: annotation.kind, targetId: annotation.targetId } : {}),
  });
  return { iv, message, postMs: performance.now() - sentAt };
}

/** The page's sender-profile cache: GET /api/profiles in chunks of 100, RSA verify keys imported once. */
export async function warmProfiles(c, client, ids) {
  client.profiles ??= new Map();
  const missing = [...new Set(ids)].filter((id) => !client.profiles.has(id));
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const { profiles } = await client.api(`/api/profiles?ids=${chunk.join(",")}`);
    for (const p of profiles) client.profiles.set(p.id, { profile: p, verifyKey: await c.importRsaPublicKey(p.rsaPublicKey) });
  }
}

/** decryptMessages for one live message: verify the signature with the sender's key, then decrypt. */
export async function verifyAndDecrypt(c, client, channel, message) {
  if (message.channelId !== channel.id) throw new Error("message of another channel");
  let sender = client.profiles?.get(message.senderId);
  if (!sender) {
    await warmProfiles(c, client, [message.senderId]);
    sender = client.profiles.get(message.senderId);
  }
  return c.decryptMessage({
    key: channel.key,
    channelId: channel.id,
    senderId: message.senderId,
    envelope: message.encryptedContent,
    verifyKey: sender.verifyKey,
  });
}
