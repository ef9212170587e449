import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANOTHER_UPLOAD_MESSAGE, UPLOADS_PER_ACCOUNT } from "../../app/features/files/upload-slots.server";
import { createChannel, postMessage, signUpUser, type RunningPocketBase, type TestChannel, type TestUser } from "./pocketbase";
import { startPocketBase } from "./pocketbase-server";
import { rawRequest, rssMb, type Answer } from "./web";
import { signedInClient, startWebServer, type WebClient, type WebServer } from "./web-session";

// Uploads pass through the web server as they arrive (ADR 66): six concurrent 50 MB uploads leave
// its memory where it was (those beyond the account's few at once wait their turn: 429), and a file
// past the limit or not of its declared size is refused while it streams, with nothing stored.
let pb: RunningPocketBase;
let web: WebServer;
let alice: TestUser;
let browser: WebClient;
let channel: TestChannel;

const MB = 1024 * 1024;
const CIPHER_OVERHEAD = 28;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebServer(pb.url);
  alice = await signUpUser(pb.url);
  channel = await createChannel(alice);
  browser = await signedInClient(web.url, alice);
}, 300_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

interface Upload {
  messageId: string;
  storagePath: string;
  /** The encrypted file's size as declared (the bytes sent are this plus the cipher overhead). */
  fileSize: number;
  /** The bytes actually sent as the file, in 1 MB pieces. */
  sentBytes: number;
  /** Waited for after the fields and the first MB, before the rest of the file. */
  hold?: Promise<unknown>;
  chunked?: boolean;
}

async function newUpload(fileSize: number, extra: Partial<Upload> = {}): Promise<Upload> {
  const message = await postMessage(alice, channel.id);
  return {
    messageId: message.id,
    storagePath: `${alice.id}/${channel.id}/${randomUUID()}.bin`,
    fileSize,
    sentBytes: fileSize + CIPHER_OVERHEAD,
    ...extra,
  };
}

/** Posts an upload as the page does, the body generated piece by piece (the test holds 1 MB of it). */
function send(upload: Upload): Promise<Answer> {
  const boundary = `----test${randomBytes(8).toString("hex")}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field("messageId", upload.messageId) +
      field("fileName", randomBytes(24).toString("base64url")) +
      field("fileSize", String(upload.fileSize)) +
      field("fileType", "application/octet-stream") +
      field("storagePath", upload.storagePath) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="encrypted.bin"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const piece = randomBytes(MB);
  const headers: Record<string, string | number> = {
    "Content-Type": `multipart/form-data; boundary=${boundary}`,
    Cookie: browser.cookieHeader(),
    "X-CSRF-Token": browser.csrf,
    Accept: "application/json",
  };
  if (!upload.chunked) headers["Content-Length"] = head.length + upload.sentBytes + tail.length;
  return rawRequest(web.url, {
    method: "POST",
    path: `/api/channels/${channel.id}/attachments`,
    headers,
    timeoutMs: 240_000,
    body: async function* () {
      yield head;
      for (let left = upload.sentBytes, first = true; left > 0; first = false) {
        const size = Math.min(left, MB);
        yield size === MB ? piece : piece.subarray(0, size);
        left -= size;
        if (first && upload.hold) await upload.hold;
      }
      yield tail;
    },
  });
}

async function storedFor(messageId: string): Promise<number> {
  return (await alice.pb.collection("file_attachments").getList(1, 1, { filter: alice.pb.filter("message = {:m}", { m: messageId }) }))
    .totalItems;
}

/**
 * Sends the uploads all at once, as several tabs of one account would; one answered 429 waits until
 * another of them has finished and is sent again (what the page's upload queue does).
 */
async function sendAllQueued(uploads: Upload[]): Promise<{ answers: Answer[]; refused: number }> {
  let refused = 0;
  let wake!: () => void;
  let oneFinished = new Promise<void>((resolve) => (wake = resolve));
  const one = async (upload: Upload): Promise<Answer> => {
    for (;;) {
      const waiting = oneFinished;
      const answer = await send(upload);
      if (answer.status !== 429) {
        wake();
        oneFinished = new Promise<void>((resolve) => (wake = resolve));
        return answer;
      }
      expect((answer.json as { message: string }).message).toBe(ANOTHER_UPLOAD_MESSAGE);
      refused += 1;
      await waiting;
    }
  };
  const answers = await Promise.all(uploads.map(one));
  return { answers, refused };
}

describe("uploads through the web server", () => {
  it("six concurrent 50 MB uploads of one account keep the web process within its idle memory + 64 MB, all stored", async () => {
    const cold = rssMb(web.pid());
    // one upload first, so the idle figure is of a process that has already passed one through
    expect((await send(await newUpload(50 * MB - CIPHER_OVERHEAD))).status).toBe(200);
    const idle = rssMb(web.pid());
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(web.pid()));
    }, 50);
    const uploads = await Promise.all(Array.from({ length: 6 }, () => newUpload(50 * MB - CIPHER_OVERHEAD)));
    const started = Date.now();
    const { answers, refused } = await sendAllQueued(uploads);
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(web.pid()));
    console.log(
      `web process RSS: ${cold.toFixed(0)} MB at start, idle ${idle.toFixed(0)} MB after one 50 MB upload, ` +
        `peak ${peak.toFixed(0)} MB during six concurrent 50 MB uploads (+${(peak - idle).toFixed(0)} MB), ` +
        `${refused} answers 429 sent again, all six stored in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const upload of uploads) expect(await storedFor(upload.messageId)).toBe(1);
    expect(peak - idle).toBeLessThan(64);
  }, 300_000);

  it(`beyond ${UPLOADS_PER_ACCOUNT} at once, an upload of the same account is refused with its text until one finishes`, async () => {
    let release!: () => void;
    const hold = new Promise((resolve) => (release = () => resolve(undefined)));
    const held = await Promise.all(Array.from({ length: UPLOADS_PER_ACCOUNT }, () => newUpload(2 * MB, { hold })));
    const answers = held.map(send);
    // the held ones are in flight once the server has taken their slots: the next is refused meanwhile
    const next = await newUpload(1000);
    let refused: Answer | undefined;
    for (let i = 0; i < 200 && refused?.status !== 429; i++) refused = await send(next);
    expect(refused?.status).toBe(429);
    expect((refused?.json as { message: string }).message).toBe(ANOTHER_UPLOAD_MESSAGE);
    release();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(held.map(() => 200));
    expect((await send(next)).status).toBe(200);
  }, 120_000);

  it("a chunked file past the limit is answered 413 while it streams, and nothing is stored", async () => {
    const upload = await newUpload(50 * MB - CIPHER_OVERHEAD, { sentBytes: 60 * MB, chunked: true });
    const answer = await send(upload);
    expect(answer.status).toBe(413);
    expect((answer.json as { message: string }).message).toBe("The file is larger than the limit of 50 MB.");
    expect(await storedFor(upload.messageId)).toBe(0);
  }, 120_000);

  it("a file longer or shorter than declared is refused and nothing is stored", async () => {
    for (const sentBytes of [5 * MB, 1000]) {
      const upload = await newUpload(2 * MB, { sentBytes });
      const answer = await send(upload);
      expect(answer.status).toBe(400);
      expect((answer.json as { message: string }).message).toBe("The encrypted file does not match its declared size.");
      expect(await storedFor(upload.messageId)).toBe(0);
    }
  }, 120_000);
});
