import { describe, expect, it } from "vitest";
import { deriveVaultKey, generateKeyBundle } from "~/crypto";
import { Chunk, SearchIndex, type SearchDoc } from "~/features/search/engine";
import { highlightSegments, normalizeTerm, tokenize } from "~/features/search/normalize";
import { isEmptyQuery, parseQuery } from "~/features/search/query";

describe("normalizeTerm", () => {
  it("folds case and accents", () => {
    expect(normalizeTerm("Café")).toBe("cafe");
    expect(normalizeTerm("RÉSUMÉ")).toBe("resume");
    expect(normalizeTerm("naïve")).toBe("naive");
    expect(normalizeTerm("Ångström")).toBe("angstrom");
    expect(normalizeTerm("ﬁle")).toBe("file");
  });

  it("splits words on anything but letters and digits", () => {
    expect(tokenize("Hello, world! it's 2026-11-23 déjà-vu")).toEqual(["Hello", "world", "it", "s", "2026", "11", "23", "déjà", "vu"]);
    expect(tokenize("   ")).toEqual([]);
  });
});

describe("parseQuery", () => {
  it("separates words from in:, from: and has:file", () => {
    expect(parseQuery("  in:#Général from:@Bob has:file Encrypted  Café ")).toEqual({
      terms: ["encrypted", "cafe"],
      channels: ["general"],
      senders: ["bob"],
      hasFile: true,
    });
  });

  it("takes the filters without their sigils, several of each, any case", () => {
    expect(parseQuery("IN:ops in:#dev FROM:alice from:@carol")).toEqual({
      terms: [],
      channels: ["ops", "dev"],
      senders: ["alice", "carol"],
      hasFile: false,
    });
  });

  it("treats an empty or unknown filter as words", () => {
    expect(parseQuery("in: from:@ has:photo").terms).toEqual(["in", "from", "has", "photo"]);
    expect(parseQuery("in:# x").channels).toEqual([]);
  });

  it("knows an empty query", () => {
    expect(isEmptyQuery(parseQuery("   "))).toBe(true);
    expect(isEmptyQuery(parseQuery("!!"))).toBe(true);
    expect(isEmptyQuery(parseQuery("has:file"))).toBe(false);
  });
});

describe("highlightSegments", () => {
  it("marks the words a term starts, whatever the case and accents", () => {
    expect(highlightSegments("Encrypted café, ENCRYPTION!", ["encr", "cafe"])).toEqual([
      { text: "Encrypted", match: true },
      { text: " ", match: false },
      { text: "café", match: true },
      { text: ", ", match: false },
      { text: "ENCRYPTION", match: true },
      { text: "!", match: false },
    ]);
  });

  it("marks nothing inside a word", () => {
    expect(highlightSegments("unencrypted", ["encr"])).toEqual([{ text: "unencrypted", match: false }]);
  });
});

const doc = (id: string, text: string, more: Partial<SearchDoc> = {}): SearchDoc => ({
  id,
  channelId: "c1",
  senderId: "u1",
  sender: "alice",
  created: `2026-01-01 10:00:${id.padStart(2, "0")}.000Z`,
  text,
  extra: "",
  hasFile: false,
  ...more,
});
const names = { channel: (id: string) => ({ c1: "general", c2: "dev-ops" })[id] };
const ids = (index: SearchIndex, q: string) => index.search(parseQuery(q), names).map((h) => h.id);

describe("SearchIndex", () => {
  const build = () => {
    const index = new SearchIndex();
    index.upsert([
      doc("1", "The Encrypted café opens"),
      doc("2", "deploy on friday", { sender: "bob", senderId: "u2" }),
      doc("3", "quarterly report", { channelId: "c2", extra: "budget-2026.pdf", hasFile: true }),
      doc("4", "quarterly numbers", { channelId: "c2", sender: "bob", senderId: "u2" }),
    ]);
    return index;
  };

  it("finds prefixes, case- and accent-insensitively, every word required", () => {
    const index = build();
    expect(ids(index, "encr")).toEqual(["1"]);
    expect(ids(index, "CAFE")).toEqual(["1"]);
    expect(ids(index, "caf encr")).toEqual(["1"]);
    expect(ids(index, "caf deploy")).toEqual([]);
    expect(ids(index, "budget")).toEqual(["3"]);
    expect(index.search(parseQuery("encr"), names)[0]).toMatchObject({ sender: "alice", channelId: "c1", terms: ["encr"] });
  });

  it("narrows with in:, from: and has:file, also without words", () => {
    const index = build();
    expect(ids(index, "quarterly").sort()).toEqual(["3", "4"]);
    expect(ids(index, "in:#dev quarterly").sort()).toEqual(["3", "4"]);
    expect(ids(index, "in:#general quarterly")).toEqual([]);
    expect(ids(index, "from:@bob quarterly")).toEqual(["4"]);
    expect(ids(index, "from:@bob").sort()).toEqual(["2", "4"]);
    expect(ids(index, "has:file")).toEqual(["3"]);
    expect(ids(index, "in:#dev from:@alice")).toEqual(["3"]);
  });

  it("leaves out channels the user no longer has", () => {
    const index = build();
    expect(index.search(parseQuery("quarterly"), { channel: (id) => (id === "c1" ? "general" : undefined) })).toEqual([]);
  });

  it("replaces the text of an edited message and forgets deleted messages and cleared channels", () => {
    const index = build();
    index.edit("1", { senderId: "u1", text: "renamed to the tea house", created: "2026-01-02 00:00:00.000Z" });
    expect(ids(index, "encr")).toEqual([]);
    expect(ids(index, "tea")).toEqual(["1"]);
    // an older edit, or another sender's, changes nothing; a later copy of the message keeps the edit
    index.edit("1", { senderId: "u1", text: "older", created: "2026-01-01 23:00:00.000Z" });
    index.edit("1", { senderId: "u2", text: "forged", created: "2026-01-03 00:00:00.000Z" });
    index.upsert([doc("1", "The Encrypted café opens")]);
    expect(ids(index, "older")).toEqual([]);
    expect(ids(index, "forged")).toEqual([]);
    expect(ids(index, "tea")).toEqual(["1"]);

    index.remove("2");
    expect(ids(index, "deploy")).toEqual([]);
    index.clearChannel("c2");
    expect(ids(index, "quarterly")).toEqual([]);
    expect(index.count()).toBe(1);
  });

  it("marks what changed since the last save, per channel", () => {
    const index = build();
    expect([...index.dirty].sort()).toEqual(["c1", "c2"]);
    index.dirty.clear();
    index.upsert([doc("1", "The Encrypted café opens")]);
    expect(index.dirty.size).toBe(0);
    index.remove("3");
    expect([...index.dirty]).toEqual(["c2"]);
  });

  it("saves and loads one channel's chunk with its backfill cursor", () => {
    const index = build();
    const chunk = index.chunk("c2");
    chunk.meta = { oldest: "2026-01-01 09:00:00.000Z", newest: "2026-01-01 11:00:00.000Z", complete: false, total: 12 };
    const loaded = Chunk.load("c2", chunk.serialize());
    expect(loaded.meta).toEqual(chunk.meta);
    const copy = new SearchIndex();
    copy.chunks.set("c2", loaded);
    expect(ids(copy, "quart").sort()).toEqual(["3", "4"]);
    expect(ids(copy, "has:file budget")).toEqual(["3"]);
  });
});

describe("search vault key", () => {
  it("has its own HKDF label: it differs from the other vault keys of the same account", async () => {
    const { ecdhPrivateKey, ecdhPublicKey } = await generateKeyBundle();
    const search = await deriveVaultKey(ecdhPrivateKey, ecdhPublicKey, "search");
    const iv = new Uint8Array(12);
    const data = new TextEncoder().encode("same plaintext");
    const seal = async (key: CryptoKey) => Buffer.from(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, data)).toString("base64");
    const others = await Promise.all(
      (["contacts", "keyring", "settings"] as const).map(async (p) => seal(await deriveVaultKey(ecdhPrivateKey, ecdhPublicKey, p))),
    );
    expect(others).not.toContain(await seal(search));
    expect(search.extractable).toBe(false);
  });
});
