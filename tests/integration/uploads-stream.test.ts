import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANOTHER_UPLOAD_MESSAGE, UPLOADS_PER_ACCOUNT } from "../../app/features/files/upload-slots.server";
import { CUT_OFF_MESSAGE } from "../../app/features/files/upload-stream.server";
import { NOT_OWN_MESSAGE } from "../../app/features/files/attachments.server";
import { createChannel, signUpUser, type RunningPocketBase } from "./pocketbase";
import { startPocketBase } from "./pocketbase-server";
import {
  CIPHER_OVERHEAD,
  MB,
  describeSixUploads,
  newUpload,
  send,
  sixConcurrentUploads,
  storedFor,
  type Upload,
  type UploadTarget,
} from "./upload-client";
import type { Answer } from "./web";
import { signedInClient, startWebServer } from "./web-session";

// Uploads pass through the web server as they arrive (ADR 66): six concurrent 50 MB uploads leave
// its memory where it was (those beyond the account's few at once wait their turn: 429), and a file
// past the limit or not of its declared size is refused while it streams, with nothing stored.
let pb: RunningPocketBase;
let target: UploadTarget;

beforeAll(async () => {
  pb = await startPocketBase();
  const web = await startWebServer(pb.url);
  const user = await signUpUser(pb.url);
  const channel = await createChannel(user);
  target = { web, user, channel, browser: await signedInClient(web.url, user) };
}, 300_000);

afterAll(async () => {
  await target?.web.stop();
  await pb?.stop();
});

/** An upload sent, with its answer readable once it has come. */
function sendTracked(upload: Upload): { done: Promise<Answer>; answer?: Answer } {
  const one: { done: Promise<Answer>; answer?: Answer } = { done: send(target, upload) };
  void one.done.then((answer) => (one.answer = answer));
  return one;
}

describe("uploads through the web server", () => {
  it("six concurrent 50 MB uploads of one account keep the web process within its idle memory + 64 MB, all stored", async () => {
    const figures = await sixConcurrentUploads(target);
    console.log(describeSixUploads(figures));
    expect(figures.statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(figures.stored).toBe(6);
    expect(figures.peakMb - figures.idleMb).toBeLessThan(64);
  }, 300_000);

  it(`beyond ${UPLOADS_PER_ACCOUNT} at once, an upload of the same account is refused with its text until one finishes`, async () => {
    let release!: () => void;
    const hold = new Promise((resolve) => (release = () => resolve(undefined)));
    const held = await Promise.all(Array.from({ length: UPLOADS_PER_ACCOUNT }, () => newUpload(target, 2 * MB, { hold })));
    // the held ones are in flight once the server has taken their slots (on a busy machine, seconds after
    // they were sent): until then the next is stored; and one that reaches the server while the next
    // holds the slot is itself refused, so it is sent again (as the page's queue does)
    const inFlight = held.map((upload) => sendTracked(upload));
    const next = await newUpload(target, 1000);
    let refused: Answer | undefined;
    for (const end = Date.now() + 60_000; refused?.status !== 429 && Date.now() < end;) {
      refused = await send(target, next);
      inFlight.forEach((one, i) => {
        if (one.answer?.status === 429) inFlight[i] = sendTracked(held[i]!);
      });
    }
    expect(refused?.status).toBe(429);
    expect((refused?.json as { message: string }).message).toBe(ANOTHER_UPLOAD_MESSAGE);
    release();
    expect((await Promise.all(inFlight.map((one) => one.done))).map((a) => a.status)).toEqual(held.map(() => 200));
    expect((await send(target, next)).status).toBe(200);
  }, 120_000);

  it("a chunked file past the limit is answered 413 while it streams, and nothing is stored", async () => {
    const upload = await newUpload(target, 50 * MB - CIPHER_OVERHEAD, { sentBytes: 60 * MB, chunked: true });
    const answer = await send(target, upload);
    expect(answer.status).toBe(413);
    expect((answer.json as { message: string }).message).toBe("The file is larger than the limit of 50 MB.");
    expect(await storedFor(target, upload.messageId)).toBe(0);
  }, 120_000);

  it("nothing after the file is read: the answer comes when the file has ended", async () => {
    const upload = await newUpload(target, MB, { chunked: true, trailingBytes: 20 * MB });
    const answer = await send(target, upload);
    expect(answer.status).toBe(200);
    expect(await storedFor(target, upload.messageId)).toBe(1);
  }, 120_000);

  it("a body that ends inside its file (no closing boundary) is a 400 that says so, and nothing is stored", async () => {
    // (it was a 503, "The server is unreachable right now", while the server answered everything else)
    for (const chunked of [false, true])
      for (const sentBytes of [MB + CIPHER_OVERHEAD, 1000]) {
        const upload = await newUpload(target, MB, { sentBytes, unfinished: true, chunked });
        const answer = await send(target, upload);
        expect([answer.status, (answer.json as { message: string }).message], `chunked ${chunked}, ${sentBytes} bytes`).toEqual([
          400,
          CUT_OFF_MESSAGE,
        ]);
        expect(await storedFor(target, upload.messageId)).toBe(0);
      }
  }, 120_000);

  it("an upload for an unknown message, or with a field missing or not a number, says which", async () => {
    const unknown = await newUpload(target, 1000);
    const answer = await send(target, { ...unknown, messageId: "z".repeat(15) });
    expect([answer.status, (answer.json as { message: string }).message]).toEqual([400, NOT_OWN_MESSAGE]);
    const noSize = await send(target, { ...(await newUpload(target, 1000)), declaredSize: "abc" });
    expect([noSize.status, (noSize.json as { message: string }).message]).toEqual([400, "fileSize must be a number."]);
  }, 120_000);

  it("a file longer or shorter than declared is refused and nothing is stored", async () => {
    for (const sentBytes of [5 * MB, 1000]) {
      const upload = await newUpload(target, 2 * MB, { sentBytes });
      const answer = await send(target, upload);
      expect(answer.status).toBe(400);
      expect((answer.json as { message: string }).message).toBe("The encrypted file does not match its declared size.");
      expect(await storedFor(target, upload.messageId)).toBe(0);
    }
  }, 120_000);
});
