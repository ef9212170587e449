/**
 * Fixes from the security review, each checked at the place the page decides: the PBKDF2 floor, files
 * bound to their message, contacts bound to their record, and previews bound to their message's URL.
 */
import { describe, expect, it } from "vitest";
import { PBKDF2_ITERATIONS, decryptBytes, encryptBytes, encryptText, sha256Bytes } from "../../app/crypto";
import { channelIterations } from "~/conversation/channels/iterations";
import { decryptContact, encryptContact } from "~/features/contacts/contacts.client";
import { fileAad, fileNameAad, isStoragePathOf, type FilePlace } from "~/conversation/files/attachments";
import { decryptAttachments } from "~/conversation/files/decrypt";
import type { EncryptedAttachment } from "~/conversation/files/types";
import { decryptPreviews } from "~/conversation/link-previews/decrypt";
import { previewAad } from "~/conversation/link-previews/link";
import { decodeBody, encodeBody } from "~/conversation/messages/body";

const aesKey = () => crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
const CHANNEL = "123e4567-e89b-42d3-a456-426614174000";

describe("channel PBKDF2 count", () => {
  it("never goes below PBKDF2_ITERATIONS, whatever the server says", () => {
    expect(channelIterations(1, null)).toBe(PBKDF2_ITERATIONS);
    expect(channelIterations(0, null)).toBe(PBKDF2_ITERATIONS);
    expect(channelIterations("1", null)).toBe(PBKDF2_ITERATIONS);
    expect(channelIterations(PBKDF2_ITERATIONS - 1, null)).toBe(PBKDF2_ITERATIONS);
  });

  it("the count remembered at create or join wins over the server's", () => {
    expect(channelIterations(1, PBKDF2_ITERATIONS * 2)).toBe(PBKDF2_ITERATIONS * 2);
    expect(channelIterations(PBKDF2_ITERATIONS * 3, PBKDF2_ITERATIONS)).toBe(PBKDF2_ITERATIONS);
    expect(channelIterations(PBKDF2_ITERATIONS * 3, null)).toBe(PBKDF2_ITERATIONS * 3);
  });
});

describe("files are bound to their message", () => {
  const sender = "senderid0000001";
  const place = (over: Partial<FilePlace> = {}): FilePlace => ({
    channelId: CHANNEL,
    messageId: "messageid000001",
    senderId: sender,
    storagePath: `${sender}/${CHANNEL}/0f8fad5b-d9cb-469f-a165-70867728950e.png`,
    ...over,
  });

  it("a file encrypted for one message does not decrypt as another message's file", async () => {
    const key = await aesKey();
    const ciphertext = await encryptBytes(key, new Uint8Array([1, 2, 3]), fileAad(place()));
    expect(await decryptBytes(key, ciphertext, fileAad(place()))).toEqual(new Uint8Array([1, 2, 3]));
    await expect(decryptBytes(key, ciphertext, fileAad(place({ messageId: "messageid000002" })))).rejects.toThrow();
    await expect(decryptBytes(key, ciphertext, fileAad(place({ senderId: "senderid0000002" })))).rejects.toThrow();
  });

  it("the storage path must sit in the sender's folder of the channel", () => {
    expect(isStoragePathOf(place().storagePath, sender, CHANNEL)).toBe(true);
    expect(isStoragePathOf(`other0000000001/${CHANNEL}/x.png`, sender, CHANNEL)).toBe(false);
    expect(isStoragePathOf(`${sender}/${CHANNEL}/../x.png`, sender, CHANNEL)).toBe(false);
    expect(isStoragePathOf(`${sender}/other-channel/x.png`, sender, CHANNEL)).toBe(false);
  });

  it("an attachment the server moves to another message, outside the folder, or to a message that signed no file is dropped", async () => {
    const key = await aesKey();
    const p = place();
    const record: EncryptedAttachment = {
      id: "att000000000001",
      messageId: p.messageId,
      channelId: CHANNEL,
      fileName: await encryptText(key, "report.pdf", fileNameAad(p)),
      fileSize: 3,
      fileType: "application/pdf",
      storagePath: p.storagePath,
      uploadedBy: sender,
    };
    const carrier = { id: p.messageId, channelId: CHANNEL, senderId: sender, fileHashes: [await sha256Bytes(new Uint8Array([1, 2, 3]))] };
    expect((await decryptAttachments(key, carrier, [record])).map((a) => a.name)).toEqual(["report.pdf"]);
    expect(await decryptAttachments(key, { ...carrier, id: "messageid000002" }, [{ ...record, messageId: "messageid000002" }])).toEqual([]);
    expect(await decryptAttachments(key, carrier, [{ ...record, storagePath: `other0000000001/${CHANNEL}/a.pdf` }])).toEqual([]);
    expect(await decryptAttachments(key, { ...carrier, fileHashes: [] }, [record])).toEqual([]);
  });

  it("the file's SHA-256 travels inside the signed message body", () => {
    const hash = "A".repeat(43);
    expect(decodeBody(encodeBody({ text: "", files: [hash] }))).toEqual({ text: "", files: [hash] });
    expect(encodeBody({ text: "plain words", files: [] })).toBe("plain words");
    expect(decodeBody("plain words")).toEqual({ text: "plain words", files: [] });
    // A typed text that looks like a marked body stays text.
    const tricky = '\u0000cc1:{"t":"x","f":[]}';
    expect(decodeBody(encodeBody({ text: tricky, files: [] }))).toEqual({ text: tricky, files: [] });
  });
});

describe("contacts are bound to their record", () => {
  it("a phone number swapped between two contacts by the server does not decrypt", async () => {
    const key = await aesKey();
    const user = "userid000000001";
    const anna = await encryptContact(key, user, { id: "contact00000001", name: "Anna", phone: "+15550001" });
    const ben = await encryptContact(key, user, { id: "contact00000002", name: "Ben", phone: "+15550002" });
    expect(await decryptContact(key, user, anna)).toEqual({ id: "contact00000001", name: "Anna", phone: "+15550001" });
    expect(await decryptContact(key, user, { ...anna, phoneNumber: ben.phoneNumber })).toBeNull();
    expect(await decryptContact(key, user, { ...ben, name: anna.name })).toBeNull();
    expect(await decryptContact(key, "userid000000002", anna)).toBeNull();
  });
});

describe("link previews are bound to their message's URL", () => {
  const message = { id: "messageid000001", channelId: CHANNEL, text: "see https://example.com/article?id=7#section" };
  const preview = async (key: CryptoKey, url: string) => ({
    id: "preview00000001",
    messageId: message.id,
    channelId: CHANNEL,
    url: await encryptText(key, url, previewAad(CHANNEL, message.id, "url")),
    title: await encryptText(key, "A title", previewAad(CHANNEL, message.id, "title")),
    description: "",
    imageUrl: "",
    hasImage: false,
  });

  it("shows a card whose URL is the message's first URL (without its fragment)", async () => {
    const key = await aesKey();
    const shown = await decryptPreviews(key, message, [await preview(key, "https://example.com/article?id=7")], "https://chat.test");
    expect(shown.map((p) => p.title)).toEqual(["A title"]);
  });

  it("hides a card that leads somewhere else", async () => {
    const key = await aesKey();
    expect(await decryptPreviews(key, message, [await preview(key, "https://evil.test/phish")], "https://chat.test")).toEqual([]);
    expect(
      await decryptPreviews(
        key,
        { ...message, text: "no links" },
        [await preview(key, "https://example.com/article?id=7")],
        "https://chat.test",
      ),
    ).toEqual([]);
  });
});
