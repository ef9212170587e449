// Uploads as the page sends them to the web server (multipart, fields first, then the encrypted file),
// the body generated piece by piece so the sender holds 1 MB of it; and six concurrent 50 MB uploads
// of one account with the web process's memory measured (tests/integration/uploads-stream.test.ts and
// the bench's uploads phase, bench/uploads.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { ANOTHER_UPLOAD_MESSAGE } from "../../app/features/files/upload-slots.server";
import { postMessage, type TestChannel, type TestUser } from "./pocketbase";
import { rawRequest, rssMb, type Answer } from "./web";
import type { WebClient, WebServer } from "./web-session";

export const MB = 1024 * 1024;
const KB = 1024;
export const CIPHER_OVERHEAD = 28;

/** Where uploads go: the web server, the uploader (as a PocketBase client and as a page) and the channel. */
export interface UploadTarget {
  web: WebServer;
  user: TestUser;
  browser: WebClient;
  channel: TestChannel;
}

export interface Upload {
  messageId: string;
  storagePath: string;
  /** The encrypted file's size as declared (the bytes sent are this plus the cipher overhead). */
  fileSize: number;
  /** The bytes actually sent as the file, in 1 MB pieces. */
  sentBytes: number;
  /** Waited for after the fields and the first MB, before the rest of the file. */
  hold?: Promise<unknown>;
  chunked?: boolean;
  /** The bytes of one more (unused) part sent after the file. */
  trailingBytes?: number;
  /** The fileSize field as sent, where it is not the number (a malformed upload). */
  declaredSize?: string;
  /** The body ends without its closing boundary (after the bytes sent of the file). */
  unfinished?: boolean;
}

export async function newUpload({ user, channel }: UploadTarget, fileSize: number, extra: Partial<Upload> = {}): Promise<Upload> {
  const message = await postMessage(user, channel.id);
  return {
    messageId: message.id,
    storagePath: `${user.id}/${channel.id}/${randomUUID()}.bin`,
    fileSize,
    sentBytes: fileSize + CIPHER_OVERHEAD,
    ...extra,
  };
}

/** Posts an upload as the page does, the body generated piece by piece (the sender holds 1 MB of it). */
export function send({ web, browser, channel }: UploadTarget, upload: Upload): Promise<Answer> {
  const boundary = `----test${randomBytes(8).toString("hex")}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field("messageId", upload.messageId) +
      field("fileName", randomBytes(24).toString("base64url")) +
      field("fileSize", upload.declaredSize ?? String(upload.fileSize)) +
      field("fileType", "application/octet-stream") +
      field("storagePath", upload.storagePath) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="encrypted.bin"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = upload.unfinished ? Buffer.alloc(0) : Buffer.from(`\r\n--${boundary}--\r\n`);
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
        if (!first || !upload.hold) continue;
        // held, as a slow sender is: a kilobyte every second keeps it from the server's 408 for a body
        // that stopped arriving (BODY_IDLE_MS), which would give its slot back before it is released
        let released = false;
        void upload.hold.then(() => (released = true));
        while (!released && left > KB) {
          await Promise.race([upload.hold, new Promise((resolve) => setTimeout(resolve, 1_000))]);
          if (released) break;
          yield piece.subarray(0, KB);
          left -= KB;
        }
      }
      if (upload.trailingBytes) {
        yield Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="extra"\r\n\r\n`);
        for (let left = upload.trailingBytes; left > 0; left -= MB) yield left >= MB ? piece : piece.subarray(0, left);
      }
      yield tail;
    },
  });
}

export async function storedFor({ user }: UploadTarget, messageId: string): Promise<number> {
  return (await user.pb.collection("file_attachments").getList(1, 1, { filter: user.pb.filter("message = {:m}", { m: messageId }) }))
    .totalItems;
}

/**
 * Sends the uploads all at once, as several tabs of one account would; one answered 429 waits until
 * another of them has finished and is sent again (what the page's upload queue does).
 */
export async function sendAllQueued(target: UploadTarget, uploads: Upload[]): Promise<{ answers: Answer[]; refused: number }> {
  let refused = 0;
  let wake!: () => void;
  let oneFinished = new Promise<void>((resolve) => (wake = resolve));
  const one = async (upload: Upload): Promise<Answer> => {
    for (;;) {
      const waiting = oneFinished;
      const answer = await send(target, upload);
      if (answer.status !== 429) {
        wake();
        oneFinished = new Promise<void>((resolve) => (wake = resolve));
        return answer;
      }
      const message = (answer.json as { message?: string } | undefined)?.message;
      if (message !== ANOTHER_UPLOAD_MESSAGE) throw new Error(`429 with an unexpected text: ${message}`);
      refused += 1;
      await waiting;
    }
  };
  const answers = await Promise.all(uploads.map(one));
  return { answers, refused };
}

export interface SixUploadsFigures {
  startMb: number;
  idleMb: number;
  peakMb: number;
  refused: number;
  seconds: number;
  statuses: number[];
  stored: number;
}

/**
 * One 50 MB upload first (the idle figure is of a process that has passed one through), then six
 * concurrent 50 MB uploads of one account sent as the page's queue does, the web process's RSS
 * sampled every 50 ms.
 */
export async function sixConcurrentUploads(target: UploadTarget): Promise<SixUploadsFigures> {
  const startMb = rssMb(target.web.pid());
  const warm = await send(target, await newUpload(target, 50 * MB - CIPHER_OVERHEAD));
  if (warm.status !== 200) throw new Error(`the first upload answered ${warm.status}: ${warm.text}`);
  const idleMb = rssMb(target.web.pid());
  let peakMb = idleMb;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(target.web.pid()));
  }, 50);
  const uploads = await Promise.all(Array.from({ length: 6 }, () => newUpload(target, 50 * MB - CIPHER_OVERHEAD)));
  const started = Date.now();
  const { answers, refused } = await sendAllQueued(target, uploads).finally(() => clearInterval(sampler));
  const seconds = (Date.now() - started) / 1000;
  peakMb = Math.max(peakMb, rssMb(target.web.pid()));
  let stored = 0;
  for (const upload of uploads) stored += await storedFor(target, upload.messageId);
  return { startMb, idleMb, peakMb, refused, seconds, statuses: answers.map((a) => a.status), stored };
}

export const describeSixUploads = (f: SixUploadsFigures) =>
  `web process RSS: ${f.startMb.toFixed(0)} MB at start, idle ${f.idleMb.toFixed(0)} MB after one 50 MB upload, ` +
  `peak ${f.peakMb.toFixed(0)} MB during six concurrent 50 MB uploads of one account (+${(f.peakMb - f.idleMb).toFixed(0)} MB); ` +
  `${f.refused} answers 429 sent again, ${f.stored} of 6 stored in ${f.seconds.toFixed(1)} s`;
