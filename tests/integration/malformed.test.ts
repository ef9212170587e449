// Fuzz-style robustness: every /api/chat/ route answers malformed input with a 4xx JSON error
// carrying a message (never a 5xx, never a stack trace), changes nothing, and the server stays
// healthy. Inputs come from a seeded generator so a failure can be replayed.

import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createChannel,
  fakePublicKey,
  joinChannel,
  post,
  postJson,
  postMessage,
  randomVerifier,
  signupBody,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RawResponse,
  type RunningPocketBase,
  type TestChannel,
  type TestUser,
} from "./pocketbase";

const SEED = 0x5eed_c4a7;
const CASES_PER_ROUTE = 30;

/** mulberry32: small deterministic PRNG. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fuzz = { label: string; body: string | Uint8Array | undefined; contentType?: string | null };

const WEIRD_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u202egnp.exe",
  "🔒🔑💬".repeat(20),
  "' OR 1=1 --",
  "{:id}",
  "\\ud800",
  "null",
  "-".repeat(36),
  "ÄÖÜ".repeat(40),
  "a".repeat(43) + "=",
];

const WRONG_TYPES: unknown[] = [0, -1, 1e308, true, false, null, [], ["a"], {}, { $gt: "" }, [[[]]]];

function generator(seed: number) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  const nested = (depth: number): unknown => (depth === 0 ? pick(WEIRD_STRINGS) : { a: nested(depth - 1), b: [nested(depth - 1)] });

  /** Structural garbage: not a JSON object at all. */
  const notAnObject = (): Fuzz[] => [
    { label: "random bytes as JSON", body: bytes(200) },
    { label: "random bytes as octet-stream", body: bytes(64), contentType: "application/octet-stream" },
    { label: "truncated JSON", body: '{"a": "b", "c": [1, 2' },
    { label: "a JSON array", body: "[1, 2, 3]" },
    { label: "a JSON string", body: '"hello"' },
    { label: "a JSON number", body: "12345" },
    { label: "JSON true", body: "true" },
    { label: "an overflowing number", body: '{"x": 1e999}' },
    {
      label: "multipart content type",
      body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
      contentType: "multipart/form-data; boundary=x",
    },
    { label: "XML", body: "<a><b>c</b></a>", contentType: "application/xml" },
    { label: "a 1 MB JSON string", body: JSON.stringify("s".repeat(1_000_000)) },
    { label: "a 1 MB object", body: JSON.stringify({ padding: "p".repeat(1_000_000) }) },
    { label: "unicode garbage", body: "\u{1F600}\u0000\uFFFF not json" },
  ];

  /**
   * JSON objects shaped like `valid` with one field certainly broken: a wrong type, a missing
   * field, an oversize value, or, for the fields with a fixed format (`formatted`), a string that
   * cannot match it. Free-text fields never get a weird string, which might be valid.
   */
  const brokenObjects = (valid: Record<string, unknown>, count: number, formatted: string[]): Fuzz[] => {
    const fields = Object.keys(valid);
    const cases: Fuzz[] = [
      { label: "an empty object", body: "{}" },
      { label: "deeply nested values", body: JSON.stringify(Object.fromEntries(fields.map((f) => [f, nested(6)]))) },
      { label: "prototype keys", body: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}' },
      { label: "duplicate keys", body: `{${fields.map((f) => `"${f}": 1, "${f}": [1]`).join(", ")}}` },
    ];
    while (cases.length < count) {
      const body: Record<string, unknown> = { ...valid };
      const broken = pick(fields);
      const kind = random();
      if (kind < 0.4 || (kind < 0.7 && !formatted.includes(broken))) {
        body[broken] = pick(WRONG_TYPES);
      } else if (kind < 0.7) {
        body[broken] = pick(WEIRD_STRINGS);
      } else if (kind < 0.85) {
        delete body[broken];
      } else {
        body[broken] = "x".repeat(70_000 + Math.floor(random() * 1_000_000));
      }
      cases.push({ label: `${broken} broken (${cases.length})`, body: JSON.stringify(body) });
    }
    return cases;
  };

  return { pick, notAnObject, brokenObjects, random };
}

let server: RunningPocketBase;
let admin: PocketBase;
let alice: TestUser;
let bob: TestUser;
let channel: TestChannel;

beforeAll(async () => {
  server = await startPocketBase();
  admin = await superuserClient(server.url, server.superuser);
  [alice, bob] = await Promise.all([signUpUser(server.url), signUpUser(server.url)]);
  channel = await createChannel(alice, "Fuzz");
  expect((await joinChannel(bob, channel)).status).toBe(200);
  await postMessage(alice, channel.id);
  await postMessage(bob, channel.id);
});

afterAll(async () => {
  await server?.stop();
});

function expectClientError(res: RawResponse, label: string) {
  const context = `${label}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.status, context).toBeLessThan(500);
  expect(res.contentType, context).toContain("application/json");
  const message = (res.json as { message?: unknown } | undefined)?.message;
  expect(typeof message, context).toBe("string");
  expect(String(message).length, context).toBeGreaterThan(0);
  expect(res.text, context).not.toMatch(/goroutine|panic|\.go:\d+|GoError|TypeError|ReferenceError/);
}

async function counts() {
  const [users, channels, members, messages] = await Promise.all(
    ["users", "channels", "channel_members", "messages"].map((name) =>
      admin
        .collection(name)
        .getList(1, 1)
        .then((list) => list.totalItems),
    ),
  );
  return { users, channels, members, messages };
}

async function fuzz(route: string, cases: Fuzz[], token?: string) {
  expect(cases.length).toBeGreaterThanOrEqual(CASES_PER_ROUTE);
  for (const fuzzCase of cases) {
    const res = await post(server.url, route, fuzzCase.body, { token, contentType: fuzzCase.contentType });
    expectClientError(res, fuzzCase.label);
  }
}

describe("malformed input never causes a server error", () => {
  it("POST /api/chat/signup", async () => {
    const gen = generator(SEED);
    const before = await counts();
    await fuzz("/api/chat/signup", [
      ...gen.notAnObject(),
      ...gen.brokenObjects(signupBody() as unknown as Record<string, unknown>, CASES_PER_ROUTE, ["id", "email"]),
    ]);
    expect(await counts()).toEqual(before);
  });

  it("POST /api/chat/channels", async () => {
    const gen = generator(SEED + 1);
    const before = await counts();
    const valid = {
      id: randomUUID(),
      name: "Fuzzed",
      verifier: randomVerifier(),
      ecdh_public_key: fakePublicKey(),
      kdf_iterations: 600_000,
    };
    const formatted = ["id", "verifier"];
    await fuzz("/api/chat/channels", [...gen.notAnObject(), ...gen.brokenObjects(valid, CASES_PER_ROUTE, formatted)], alice.token);
    // and the same without a signed-in user
    await fuzz("/api/chat/channels", gen.notAnObject().concat(gen.brokenObjects(valid, CASES_PER_ROUTE, formatted)));
    expect(await counts()).toEqual(before);
  });

  it("POST /api/chat/channels/join", async () => {
    const gen = generator(SEED + 2);
    const carol = await signUpUser(server.url);
    const before = await counts();
    const valid = { channel_id: channel.id, verifier: channel.verifier, ecdh_public_key: fakePublicKey() };
    await fuzz(
      "/api/chat/channels/join",
      [...gen.notAnObject(), ...gen.brokenObjects(valid, CASES_PER_ROUTE, ["channel_id", "verifier"])],
      carol.token,
    );
    expect(await counts()).toEqual(before);
  });

  it("POST /api/chat/channels/{id}/clear", async () => {
    const gen = generator(SEED + 3);
    const before = await counts();

    // any JSON object is an acceptable (ignored) body here, so only non-objects are malformed
    const bodies = gen.notAnObject();
    await fuzz(`/api/chat/channels/${channel.id}/clear`, [...bodies, ...bodies, ...bodies].slice(0, CASES_PER_ROUTE), alice.token);

    // malformed ids in the path
    const ids = [
      "x",
      channel.id.toUpperCase(),
      channel.id + "0",
      channel.id.slice(1),
      "🔒".repeat(36),
      "a".repeat(2000),
      "%00",
      "%2F",
      "' OR 1=1 --",
      "{:id}",
    ];
    for (const id of ids) {
      const res = await post(server.url, `/api/chat/channels/${encodeURIComponent(id)}/clear`, "{}", { token: alice.token });
      expectClientError(res, `id ${id.slice(0, 40)}`);
    }

    expect(await counts()).toEqual(before);
  });

  it("the server is still healthy and still works afterwards", async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    const user = await signUpUser(server.url);
    const created = await createChannel(user, "After the storm");
    const joined = await joinChannel(bob, created);
    expect(joined.status).toBe(200);
    const cleared = await postJson(server.url, `/api/chat/channels/${channel.id}/clear`, {}, alice.token);
    expect(cleared.json).toEqual({ deleted: 2 });

    expect(server.logs()).not.toMatch(/panic|goroutine \d+/);
  });
});
