import { describe, expect, it } from "vitest";
import { deriveVaultKey, generateKeyBundle } from "../../app/crypto";
import { openEntry, sealEntry } from "../../app/conversation/archive/entry";

// An entry of the message archive (ADR 0048) opens only with the user's archive key, for the user,
// conversation and message it was sealed for.

async function keys() {
  const bundle = await generateKeyBundle();
  return {
    archive: await deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "archive"),
    sealed: await deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "sealed"),
  };
}

describe("message archive entries", () => {
  it("open for the user, conversation and message they were sealed for, and hold no plaintext", async () => {
    const { archive } = await keys();
    const text = '{"b":"archived canary","s":"sig"}';
    const data = await sealEntry(archive, "bob", "conv1", "msg1", text);
    expect(data).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(data, "base64url").toString("latin1")).not.toContain("canary");
    expect(await openEntry(archive, "bob", "conv1", "msg1", data)).toBe(text);
  });

  it("refuse an entry moved to another message, conversation or user, altered, or opened with another key or purpose", async () => {
    const { archive, sealed } = await keys();
    const other = await keys();
    const data = await sealEntry(archive, "bob", "conv1", "msg1", "hello");
    const flipped = Buffer.from(data, "base64url");
    flipped[flipped.length - 1] ^= 1;
    // Each attempt starts when it is awaited: started together, one that failed while an earlier one was
    // still awaited would be a rejection nobody handled yet (vitest reports it as an error of the run).
    const attempts = [
      () => openEntry(archive, "bob", "conv1", "msg2", data),
      () => openEntry(archive, "bob", "conv2", "msg1", data),
      () => openEntry(archive, "alice", "conv1", "msg1", data),
      () => openEntry(archive, "bob", "conv1", "msg1", flipped.toString("base64url")),
      () => openEntry(other.archive, "bob", "conv1", "msg1", data),
      () => openEntry(sealed, "bob", "conv1", "msg1", data),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow();
  });
});
