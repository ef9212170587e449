// The history page as JSON through the web server (issue 29, item 1): the latest 200 messages with
// their edits, reactions, files and previews, timed at 1,000 messages in the channel and at 100,000.
//
// The deep channel's older messages are copies of one real envelope, created by a superuser in
// batches straight in PocketBase (posting 100,000 through the web server would take minutes and
// measure nothing more: the page's cost is what must not grow with them). Its newest 200 are posted
// the way the page does, then annotated like the 1,000-message channel. Files and previews are
// records only (their names and titles opaque strings, as sealed ones are); the page reads them, it
// never opens the blobs.
import { createChannel, joinChannel, postMessage } from "./chat.mjs";
import { request } from "./http.mjs";
import { percentile, pool } from "./stats.mjs";

const PAGE = 200;
const FETCHES = 21;

async function superuserBatch(stack, requests) {
  const res = await request(`${stack.pbUrl}/api/batch`, {
    method: "POST",
    headers: { Authorization: stack.superuserToken },
    body: { requests },
    timeoutMs: 120_000,
  });
  if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${res.text.slice(0, 300)}`);
}

/** Files and link previews on every tenth of `messageIds` (records as the page's uploads and previews make them). */
export async function addFilesAndPreviews(stack, channelId, messages) {
  const chosen = messages.filter((_, i) => i % 10 === 5);
  const requests = chosen.flatMap((m, i) => [
    {
      method: "POST",
      url: "/api/collections/file_attachments/records?fields=id",
      body: {
        message: m.id,
        channel: channelId,
        uploaded_by: m.senderId,
        file_name: `sealed-name-${i}-${"x".repeat(60)}`,
        file_size: 20_000 + i,
        file_type: "application/octet-stream",
      },
    },
    {
      method: "POST",
      url: "/api/collections/link_previews/records?fields=id",
      body: { message: m.id, channel: channelId, url: `sealed-url-${i}`, title: `sealed-title-${i}`, description: "sealed-description" },
    },
  ]);
  for (let i = 0; i < requests.length; i += 500) await superuserBatch(stack, requests.slice(i, i + 500));
  return chosen.length;
}

/** Posts `count` messages, then one edit per ten and three reactions per ten of them. Returns the posted records. */
export async function postAnnotated(c, senders, channel, count, label) {
  const posted = await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) =>
      (await postMessage(c, senders[i % senders.length], channel, `${label} ${i}: the quick brown fox jumps over the lazy dog`)).message,
  );
  const emoji = ["👍", "❤️", "😂", "🎉", "😮", "😢"];
  await pool(
    Array.from({ length: Math.round(count / 10) }, (_, i) => i * 10 + 3),
    4,
    (i) => postMessage(c, senders[i % senders.length], channel, `${label} ${i}, edited`, { kind: "edit", targetId: posted[i].id }),
  );
  await pool(
    Array.from({ length: Math.round((count * 3) / 10) }, (_, i) => i),
    4,
    (i) =>
      postMessage(c, senders[(i * 7) % senders.length], channel, "", {
        kind: "reaction",
        targetId: posted[count - 1 - ((i * 3) % count)].id,
        emoji: emoji[i % emoji.length],
      }),
  );
  return posted;
}

/** A channel of `total` messages: total - 200 copies created by a superuser, then 200 posted and annotated. */
export async function seedDeepChannel({ c, stack, reader, senders, tag, total, log }) {
  const channel = await createChannel(c, reader, `bench-deep-${tag}`, `pw-Deep-${tag}`);
  await pool(senders, 4, (client) => joinChannel(client, channel));
  const t = performance.now();
  const { message: template } = await postMessage(c, senders[0], channel, "the first of the deep history");
  const copy = await request(`${stack.pbUrl}/api/collections/messages/records/${template.id}`, {
    headers: { Authorization: stack.superuserToken },
  });
  if (copy.status !== 200) throw new Error(`reading the template message answered ${copy.status}`);
  const body = JSON.parse(copy.text);
  for (const key of ["id", "created", "updated", "collectionId", "collectionName", "expand"]) delete body[key];
  const older = total - PAGE - 1;
  const batches = [];
  for (let i = 0; i < older; i += 500) batches.push(Math.min(500, older - i));
  await pool(batches, 2, (size) =>
    superuserBatch(
      stack,
      Array.from({ length: size }, () => ({ method: "POST", url: "/api/collections/messages/records?fields=id", body })),
    ),
  );
  log(`created ${older + 1} older messages in the deep channel in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const posted = await postAnnotated(c, senders, channel, PAGE, "deep history message");
  await addFilesAndPreviews(stack, channel.id, posted);
  return { ...channel, total };
}

/** p50 of the latest page (200) as JSON through the web server, over 21 requests after one untimed. */
export async function timeLatestPage(client, channelId) {
  await client.api(`/api/channels/${channelId}/messages?limit=${PAGE}`);
  const times = [];
  for (let i = 0; i < FETCHES; i++) {
    const t0 = performance.now();
    const page = await client.api(`/api/channels/${channelId}/messages?limit=${PAGE}`);
    times.push(performance.now() - t0);
    if (i === 0 && (page.messages?.length ?? page.items?.length ?? 0) === 0) throw new Error("the page came back empty");
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}
