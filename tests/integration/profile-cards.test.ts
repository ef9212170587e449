// Display names and photos (docs/decisions/0075-profile-cards.md): the web app's card routes in front of
// our PocketBase, and the collections' own rules with a person's own PocketBase token. Only the owner
// writes a card or a sealed key; a card is read by its owner and the people its key was sealed to.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebServer } from "../e2e/stack";
import { colleagues, fakePublicKey, signUpUser, startPocketBase, statusOf, type RunningPocketBase, type TestUser } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

const sealed = (bytes = 90) => randomBytes(bytes).toString("base64url");

let pb: RunningPocketBase;
let web: WebServer;
let [alice, bob, carol] = [] as Visitor[];

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebFor(pb.url);
  [alice, bob, carol] = [new Visitor(web.url), new Visitor(web.url), new Visitor(web.url)];
  for (const person of [alice, bob, carol]) await person.signUp();
  const channel = await alice.createChannel("Cards");
  const joined = await bob.post("/api/channels/join", {
    channelId: channel.id,
    verifier: channel.verifier,
    ecdhPublicKey: fakePublicKey(),
  });
  expect(joined.status, joined.text).toBe(200);
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const cardsFor = async (viewer: Visitor, ids: string[]) => {
  const answer = await viewer.send({ path: `/api/profile-cards?ids=${ids.join(",")}` });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { cards: { ownerId: string; card: string; sealedKey: string | null }[] }).cards;
};

describe("profile card routes", () => {
  it("a card is read by the people its key is sealed to, and by nobody else", async () => {
    const card = sealed(2000);
    expect((await alice.post("/api/profile-card", { card })).status).toBe(200);
    const keys = [alice, bob].map((p) => ({ reader: p.userId, sealedKey: sealed(60) }));
    const shared = await alice.post("/api/profile-card/keys", { keys, prune: true });
    expect(shared.status, shared.text).toBe(200);

    expect(await cardsFor(bob, [alice.userId])).toEqual([{ ownerId: alice.userId, card, sealedKey: keys[1].sealedKey }]);
    expect(await cardsFor(carol, [alice.userId])).toEqual([]);
    const own = (await alice.send({ path: "/api/profile-card" })).json as { card: unknown; readers: string[]; people: string[] };
    expect(own).toMatchObject({ card: { card, sealedKey: keys[0].sealedKey }, people: [bob.userId] });
    expect(own.readers.sort()).toEqual([alice.userId, bob.userId].sort());

    // a stranger cannot be made a reader through the app: only people one shares a conversation with
    const refused = await alice.post("/api/profile-card/keys", { keys: [{ reader: carol.userId, sealedKey: sealed(60) }] });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ message: "Your profile can be shared only with people you share a conversation with." });
    expect(await cardsFor(carol, [alice.userId])).toEqual([]);

    // removing the card removes every sealed key with it
    expect((await alice.post("/api/profile-card", { remove: true })).status).toBe(200);
    expect(await cardsFor(bob, [alice.userId])).toEqual([]);
    expect((await alice.send({ path: "/api/profile-card" })).json).toMatchObject({ card: null, readers: [] });
  });

  it("answers bad input with a clear 4xx and keeps what was saved", async () => {
    const card = sealed(500);
    expect((await bob.post("/api/profile-card", { card })).status).toBe(200);
    const bad: [string, unknown, number, string?][] = [
      ["/api/profile-card", { card: "Bob Plaintext!" }, 400, "A profile must be encrypted."],
      [
        "/api/profile-card",
        { card: "a".repeat(200_001) },
        413,
        "Your profile is too large to save (at most 200 KB encrypted). Choose a smaller photo.",
      ],
      ["/api/profile-card", { card: "a".repeat(300_000) }, 413, "Request is too large."],
      ["/api/profile-card", { card, owner: alice.userId }, 400],
      ["/api/profile-card", { card: 5 }, 400],
      ["/api/profile-card", { card: null }, 400],
      ["/api/profile-card", {}, 400, "Send either an encrypted card or remove: true."],
      ["/api/profile-card", { card, remove: true }, 400, "Send either an encrypted card or remove: true."],
      ["/api/profile-card/keys", { keys: [] }, 400],
      ["/api/profile-card/keys", { keys: [{ reader: "NOT-AN-ID", sealedKey: sealed() }] }, 400],
      ["/api/profile-card/keys", { keys: [{ reader: alice.userId, sealedKey: "x".repeat(401) }] }, 400],
      ["/api/profile-card/keys", { keys: [{ reader: alice.userId, sealedKey: "not sealed" }] }, 400],
      ["/api/profile-card/keys", { keys: [{ reader: alice.userId, sealedKey: sealed(), owner: carol.userId }] }, 400],
    ];
    for (const [path, body, status, message] of bad) {
      const answer = await bob.post(path, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      if (message) expect(answer.json).toEqual({ message });
    }
    for (const query of [
      "",
      "?ids=",
      "?ids=x",
      `?ids=${Array.from({ length: 101 }, (_, i) => `a${String(i).padStart(14, "0")}`).join(",")}`,
    ])
      expect((await bob.send({ path: `/api/profile-cards${query}` })).status, query).toBe(400);
    const signedOut = new Visitor(web.url);
    await signedOut.visit();
    expect((await signedOut.send({ path: "/api/profile-card" })).status).toBe(401);
    expect((await signedOut.post("/api/profile-card", { card })).status).toBe(401);
    expect((await bob.send({ path: "/api/profile-card" })).json).toMatchObject({ card: { card } });
  });
});

describe("profile card rules in PocketBase", () => {
  let [ann, ben, cat] = [] as TestUser[];
  let cardId = "";

  beforeAll(async () => {
    [ann, ben, cat] = await Promise.all([signUpUser(pb.url), signUpUser(pb.url), signUpUser(pb.url)]);
    await colleagues(ann, ben);
    cardId = (await ann.pb.collection("profile_cards").create({ owner: ann.id, card: sealed() })).id;
    await ann.pb.collection("profile_card_keys").create({ owner: ann.id, reader: ben.id, sealed_key: sealed(60) });
  });

  it("a stranger reads neither the card nor its keys", async () => {
    expect(await statusOf(ben.pb.collection("profile_cards").getOne(cardId))).toBe(200);
    expect(await statusOf(cat.pb.collection("profile_cards").getOne(cardId))).toBe(404);
    expect((await cat.pb.collection("profile_cards").getList(1, 50)).items).toEqual([]);
    expect((await cat.pb.collection("profile_card_keys").getList(1, 50)).items).toEqual([]);
    // a key sealed to Ben opens Ann's card to Ben only, never to Cat through it
    expect((await ben.pb.collection("profile_card_keys").getList(1, 50)).items).toHaveLength(1);
    // Cat holding a key of someone else (Ben's, sealed to her) still reads nothing of Ann's: the rule
    // joins the key record once, owner and reader on the same row
    await colleagues(ben, cat);
    await ben.pb.collection("profile_cards").create({ owner: ben.id, card: sealed() });
    await ben.pb.collection("profile_card_keys").create({ owner: ben.id, reader: cat.id, sealed_key: sealed(60) });
    expect(await statusOf(cat.pb.collection("profile_cards").getOne(cardId))).toBe(404);
    expect((await cat.pb.collection("profile_cards").getFullList()).map((c) => c.owner)).toEqual([ben.id]);
  });

  it("only the owner writes a card or a key", async () => {
    const key = (await ben.pb.collection("profile_card_keys").getFirstListItem(`owner = "${ann.id}"`)).id;
    expect(await statusOf(ben.pb.collection("profile_cards").update(cardId, { card: sealed() }))).toBe(404);
    expect(await statusOf(ben.pb.collection("profile_cards").delete(cardId))).toBe(404);
    expect(await statusOf(ben.pb.collection("profile_card_keys").update(key, { sealed_key: sealed() }))).toBe(404);
    expect(await statusOf(ben.pb.collection("profile_card_keys").delete(key))).toBe(404);
    // made in someone else's name: refused
    expect(await statusOf(cat.pb.collection("profile_cards").create({ owner: ann.id, card: sealed() }))).toBe(400);
    expect(await statusOf(cat.pb.collection("profile_card_keys").create({ owner: ann.id, reader: cat.id, sealed_key: sealed() }))).toBe(
      400,
    );
    // the owner cannot move a key to another reader, nor a card to another owner
    expect(await statusOf(ann.pb.collection("profile_card_keys").update(key, { reader: cat.id }))).toBe(404);
    expect(await statusOf(ann.pb.collection("profile_cards").update(cardId, { owner: cat.id }))).toBe(404);
    // one card per person
    expect(await statusOf(ann.pb.collection("profile_cards").create({ owner: ann.id, card: sealed() }))).toBe(400);
    expect(await statusOf(cat.pb.collection("profile_cards").getOne(cardId))).toBe(404);
  });
});
