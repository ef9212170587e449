// History on a new device (ADR 0048), for bench/direct.mjs: a direct conversation of 1,000 messages
// that the reader's first device read; that device archives them as the page does (each sealed under
// the user's vault key "archive", bound to user, conversation and message; sent 100 a request); then a
// new device of the same user fetches the conversation's whole archive (pages of 500), opens every
// entry and checks every message's signature, as the page does before it shows them. Measured in one
// Node process through the production web server and PocketBase; the page's IndexedDB write and
// drawing are not in it (the browser tests show the result).

const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const SEALED_LABEL = "chatcrypt:sealed-message:v1";
const signed = (channelId, senderId, body) => new TextEncoder().encode(JSON.stringify([channelId, senderId, body]));

/** The creator posts `count` signed MLS messages of about 120 characters; answers their ids and plaintexts. */
async function postHistory(mls, c, sender, id, state, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const body = `history message ${i} `.padEnd(120, "lorem ipsum ");
    const plaintext = JSON.stringify({
      b: body,
      s: await c.signLabelled(sender.keys.rsaPrivateKey, SEALED_LABEL, signed(id, sender.user.id, body)),
    });
    const made = await mls.seal(state, new TextEncoder().encode(plaintext));
    state = made.state;
    const posted = await sender.api(`/api/channels/${id}/messages`, {
      encryptedContent: b64(made.message),
      senderPublicKey: sender.user.ecdhPublicKey,
      epoch: 1,
    });
    out.push({ id: posted.message.id, plaintext });
  }
  return out;
}

/** The reading device's archive uploads: sealed and sent 100 a request. Answers the time taken. */
async function upload(c, reader, id, history) {
  const t0 = performance.now();
  const key = await c.deriveVaultKey(reader.keys.ecdhPrivateKey, reader.keys.ecdhPublicKey, "archive");
  for (let i = 0; i < history.length; i += 100) {
    const entries = await Promise.all(
      history.slice(i, i + 100).map(async (m) => ({
        messageId: m.id,
        data: await c.sealEntry(key, reader.user.id, id, m.id, m.plaintext),
      })),
    );
    await reader.api(`/api/archive/${id}`, { entries });
  }
  return performance.now() - t0;
}

/** A new device of the reader: the whole archive fetched, opened and each signature checked. */
export async function restore(c, reader, sender, id, count) {
  const t0 = performance.now();
  const key = await c.deriveVaultKey(reader.keys.ecdhPrivateKey, reader.keys.ecdhPublicKey, "archive");
  const opened = [];
  let fetchMs = 0;
  for (let page = 1; ; page++) {
    const t = performance.now();
    const found = await reader.api(`/api/archive/${id}?page=${page}`);
    fetchMs += performance.now() - t;
    for (const e of found.entries) opened.push(await c.openEntry(key, reader.user.id, id, e.messageId, e.data));
    if (!found.hasMore) break;
  }
  const openedMs = performance.now() - t0;
  let verified = 0;
  for (const text of opened) {
    const { b, s } = JSON.parse(text);
    if (await c.verifyLabelled(sender.keys.rsaPublicKey, SEALED_LABEL, signed(id, sender.user.id, b), s)) verified++;
  }
  if (opened.length !== count || verified !== count) throw new Error(`the archive gave ${opened.length} entries, ${verified} verified`);
  return { total: performance.now() - t0, openedMs, fetchMs };
}

/** One run: answers the reading device's upload time and the new device's restore times. */
export async function archiveRun(mls, c, people, created, count = 1000) {
  const [creator, reader] = people.map((p) => p.client);
  const history = await postHistory(mls, c, creator, created.id, created.state, count);
  const uploadMs = await upload(c, reader, created.id, history);
  return { uploadMs, channelId: created.id, ...(await restore(c, reader, creator, created.id, count)) };
}
