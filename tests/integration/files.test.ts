import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  joinChannel,
  postMessage,
  signUpUser,
  startPocketBase,
  statusOf,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

// Encrypted attachments and previews: only members upload (to their own messages) and download.
let pb: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let mallory: TestUser;
let channel: TestChannel;

const attachmentForm = (user: TestUser, channelId: string, messageId: string, bytes = randomBytes(64)) => {
  const form = new FormData();
  form.set("message", messageId);
  form.set("channel", channelId);
  form.set("uploaded_by", user.id);
  form.set("file_name", randomBytes(24).toString("base64url"));
  form.set("file_size", String(bytes.length - 28));
  form.set("file_type", "application/pdf");
  form.set("storage_path", `${user.id}/${channelId}/x.pdf`);
  form.set("file", new Blob([bytes]), "encrypted.bin");
  return form;
};

beforeAll(async () => {
  pb = await startPocketBase();
  [alice, bob, mallory] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url), signUpUser(pb.url)]);
  channel = await createChannel(alice);
  expect((await joinChannel(bob, channel)).status).toBe(200);
});

afterAll(async () => {
  await pb?.stop();
});

describe("file attachments", () => {
  it("a member uploads to their own message and another member downloads the same bytes", async () => {
    const message = await postMessage(alice, channel.id);
    const bytes = randomBytes(4096);
    const record = await alice.pb.collection("file_attachments").create(attachmentForm(alice, channel.id, message.id, bytes));
    const seen = await bob.pb.collection("file_attachments").getOne(record.id);
    const token = await bob.pb.files.getToken();
    const response = await fetch(bob.pb.files.getURL(seen, seen.file as string, { token }));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("a non-member can neither upload to the channel nor see or download its files", async () => {
    const message = await postMessage(alice, channel.id);
    const record = await alice.pb.collection("file_attachments").create(attachmentForm(alice, channel.id, message.id));

    // Upload as a non-member, to someone else's message and to a made-up message of their own.
    expect(
      await statusOf(mallory.pb.collection("file_attachments").create(attachmentForm(mallory, channel.id, message.id))),
    ).toBeGreaterThanOrEqual(400);
    expect(await statusOf(mallory.pb.collection("file_attachments").getOne(record.id))).toBe(404);
    expect((await mallory.pb.collection("file_attachments").getList(1, 50)).items).toEqual([]);

    // A file token of their own does not open a protected file of a channel they are not in.
    const token = await mallory.pb.files.getToken();
    const url = `${pb.url}/api/files/file_attachments/${record.id}/${record.file}?token=${token}`;
    expect((await fetch(url)).status).toBe(404);
    // Nor does the URL without a token.
    expect((await fetch(`${pb.url}/api/files/file_attachments/${record.id}/${record.file}`)).status).toBe(404);
  });

  it("a member cannot attach a file to another member's message, nor claim someone else as uploader", async () => {
    const message = await postMessage(alice, channel.id);
    expect(
      await statusOf(bob.pb.collection("file_attachments").create(attachmentForm(bob, channel.id, message.id))),
    ).toBeGreaterThanOrEqual(400);
    const own = await postMessage(bob, channel.id);
    const form = attachmentForm(bob, channel.id, own.id);
    form.set("uploaded_by", alice.id);
    expect(await statusOf(bob.pb.collection("file_attachments").create(form))).toBeGreaterThanOrEqual(400);
  });

  it("link previews: only the message's sender in that channel may store one; non-members cannot read them", async () => {
    const message = await postMessage(alice, channel.id);
    const preview = new FormData();
    preview.set("message", message.id);
    preview.set("channel", channel.id);
    for (const field of ["url", "title", "description", "image_url"]) preview.set(field, randomBytes(30).toString("base64url"));
    preview.set("image", new Blob([randomBytes(200)]), "preview.bin");
    expect(await statusOf(bob.pb.collection("link_previews").create(preview))).toBeGreaterThanOrEqual(400);
    const record = await alice.pb.collection("link_previews").create(preview);
    expect((await bob.pb.collection("link_previews").getOne(record.id)).id).toBe(record.id);
    expect(await statusOf(mallory.pb.collection("link_previews").getOne(record.id))).toBe(404);
    const token = await mallory.pb.files.getToken();
    expect((await fetch(`${pb.url}/api/files/link_previews/${record.id}/${record.image}?token=${token}`)).status).toBe(404);
  });
});
