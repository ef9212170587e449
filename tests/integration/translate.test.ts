// POST /api/chat/translate against a real PocketBase and a real Apertium APy on loopback.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startApertium, type RunningApertium } from "./apertium";
import { post, postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import { ROUTE, SERVICE_UNAVAILABLE, languages, texts } from "./translate-api";
import { signedInClient, startWebServer, type WebServer } from "./web-session";

// Apertium may need a minute to install on a fresh machine, APy some seconds to start.
const SETUP_TIMEOUT_MS = 11 * 60_000;

let apertium: RunningApertium;
let pb: RunningPocketBase;
let user: TestUser;

beforeAll(async () => {
  apertium = await startApertium();
  pb = await startPocketBase({ env: { TRANSLATE_PROVIDER: "apertium", APERTIUM_URL: apertium.url } });
  user = await signUpUser(pb.url);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await pb?.stop();
  await apertium?.stop();
});

function translate(body: unknown, token = user.token) {
  return postJson(pb.url, ROUTE, body, token);
}

describe("translation with Apertium", () => {
  it("has the pairs the product relies on", () => {
    expect(apertium.pairs).toEqual(expect.arrayContaining(["eng-spa", "spa-eng", "spa-por"]));
  });

  it("translates an English sentence into Spanish", async () => {
    const res = await translate({ text: "The cat is on the table.", target_lang: "ES" });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json as object)).toEqual(["translations"]);
    const [spanish] = texts(res.json);
    expect(texts(res.json)).toHaveLength(1);
    expect(spanish).toMatch(/\bgato\b/i);
    expect(spanish).toMatch(/\bmesa\b/i);
  });

  it("answers a list with a list of the same length, in order, blank texts kept", async () => {
    const res = await translate({
      text: ["The cat is on the table.", "", "The dog is in the house.", "   "],
      target_lang: "es",
    });
    expect(res.status, res.text).toBe(200);
    const result = texts(res.json);
    expect(result).toHaveLength(4);
    expect(result[0]).toMatch(/\bgato\b/i);
    expect(result[1]).toBe("");
    expect(result[2]).toMatch(/\bperro\b/i);
    expect(result[2]).toMatch(/\bcasa\b/i);
    expect(result[3]).toBe("   ");
  });

  it("goes through a middle language when there is no direct pair (English to Portuguese)", async () => {
    expect(apertium.pairs).not.toContain("eng-por");
    const res = await translate({ text: ["The cat is on the table."], target_lang: "PT-BR" });
    expect(res.status, res.text).toBe(200);
    const [portuguese] = texts(res.json);
    expect(portuguese).toMatch(/\bgato\b/i);
    expect(portuguese).toMatch(/\bO gato\b/); // Portuguese article, not Spanish "El"
  });

  it("returns text already in the target language unchanged", async () => {
    const text = "The cat is on the table.";
    for (const target of ["EN-US", "EN-GB"]) {
      const res = await translate({ text, target_lang: target });
      expect(res.status, res.text).toBe(200);
      expect(texts(res.json)).toEqual([text]);
    }
  });

  it("answers 422 with a clear message for a language this server cannot translate to", async () => {
    for (const [code, name] of [
      ["DE", "German"],
      ["JA", "Japanese"],
    ]) {
      const res = await translate({ text: "The cat is on the table.", target_lang: code });
      expect(res.status, res.text).toBe(422);
      expect((res.json as { message: string }).message).toBe(`Translation to ${name} is not available on this server.`);
    }
  });
});

describe("the languages the engine can translate into", () => {
  it("lists what Apertium's pairs reach, and not the languages it lacks", async () => {
    const res = await languages(pb.url, user.token);
    expect(res.status).toBe(200);
    expect(res.json.languages).toEqual(expect.arrayContaining(["ES", "EN-US", "EN-GB", "PT-BR", "PT-PT"]));
    expect(res.json.languages).not.toContain("DE");
    expect(res.json.languages).not.toContain("JA");
    // every listed language really translates (no 422)
    for (const code of res.json.languages ?? []) {
      const answer = await translate({ text: "The cat is on the table.", target_lang: code });
      expect(answer.status, `${code}: ${answer.text}`).toBe(200);
    }
  });

  it("needs a signed-in user", async () => {
    const res = await languages(pb.url);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe("Not authenticated");
  });
});

describe("request checks", () => {
  it("needs a signed-in user", async () => {
    const res = await postJson(pb.url, ROUTE, { text: "The cat is on the table.", target_lang: "ES" });
    expect(res.status).toBe(401);
    expect((res.json as { message: string }).message).toBe("Not authenticated");
  });

  it("answers 400 with a message for malformed bodies", async () => {
    const cases: { name: string; body: string; message: RegExp }[] = [
      { name: "not JSON", body: "text=hello", message: /JSON object/ },
      { name: "a JSON array", body: JSON.stringify(["hello"]), message: /JSON object/ },
      { name: "text is a number", body: JSON.stringify({ text: 42, target_lang: "ES" }), message: /^text must be/ },
      { name: "text missing", body: JSON.stringify({ target_lang: "ES" }), message: /^text must be/ },
      { name: "an empty list", body: JSON.stringify({ text: [], target_lang: "ES" }), message: /^text must be/ },
      { name: "a list with a number", body: JSON.stringify({ text: ["a", 1], target_lang: "ES" }), message: /^text must be/ },
      {
        name: "51 strings",
        body: JSON.stringify({ text: Array.from({ length: 51 }, () => "hello"), target_lang: "ES" }),
        message: /^text must be .* 1 to 50 strings/,
      },
      {
        name: "5,001 characters",
        body: JSON.stringify({ text: "a".repeat(5001), target_lang: "ES" }),
        message: /at most 5000 characters/,
      },
      {
        name: "20,001 characters in total",
        body: JSON.stringify({ text: [...Array.from({ length: 4 }, () => "a".repeat(5000)), "a"], target_lang: "ES" }),
        message: /at most 20000 characters in total/,
      },
      { name: "target_lang missing", body: JSON.stringify({ text: "hello" }), message: /^target_lang must be/ },
      { name: "target_lang unknown", body: JSON.stringify({ text: "hello", target_lang: "XX" }), message: /^target_lang must be/ },
      { name: "target_lang a number", body: JSON.stringify({ text: "hello", target_lang: 7 }), message: /^target_lang must be/ },
    ];
    for (const { name, body, message } of cases) {
      const contentType = name === "not JSON" ? "application/x-www-form-urlencoded" : "application/json";
      const res = await post(pb.url, ROUTE, body, { token: user.token, contentType });
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(res.contentType, name).toContain("application/json");
      expect((res.json as { message: string }).message, name).toMatch(message);
    }
  });

  it("accepts the largest request", async () => {
    const res = await translate({ text: Array.from({ length: 50 }, () => "the cat ".repeat(50)), target_lang: "ES" });
    expect(res.status, res.text).toBe(200);
    expect(texts(res.json)).toHaveLength(50);
    expect(texts(res.json)[49]).toMatch(/gato/);
  });
});

describe("when the provider fails or is off", () => {
  let broken: RunningPocketBase | undefined;
  let off: RunningPocketBase | undefined;

  afterAll(async () => {
    await broken?.stop();
    await off?.stop();
  });

  it("answers 502 without details when the translation engine cannot be reached", async () => {
    // a loopback port nobody listens on
    broken = await startPocketBase({ env: { APERTIUM_URL: `http://127.0.0.1:${await freePort()}` } });
    const someone = await signUpUser(broken.url);

    const res = await postJson(broken.url, ROUTE, { text: "The cat is on the table.", target_lang: "ES" }, someone.token);
    expect(res.status, res.text).toBe(502);
    expect(res.json).toEqual({ status: 502, message: SERVICE_UNAVAILABLE, data: {} });
    expect(broken.logs()).not.toMatch(/panic|goroutine/);

    const list = await languages(broken.url, someone.token);
    expect(list.status).toBe(502);
    expect(list.json.message).toBe(SERVICE_UNAVAILABLE);
  });

  it("the page's language list: the engine's languages, or null (greys nothing) when it cannot be asked", async () => {
    const webs: WebServer[] = [];
    try {
      const working = await startWebServer(pb.url);
      webs.push(working);
      const reader = await signedInClient(working.url, user);
      const known = (await reader.api("/api/translate-languages")) as { languages: string[] };
      expect(known.languages).toEqual(expect.arrayContaining(["ES", "PT-BR"]));
      expect(known.languages).not.toContain("JA");

      const down = await startWebServer(broken!.url);
      webs.push(down);
      const other = await signedInClient(down.url, await signUpUser(broken!.url));
      expect(await other.api("/api/translate-languages")).toEqual({ languages: null });
    } finally {
      await Promise.all(webs.map((web) => web.stop()));
    }
  }, 240_000);

  it("answers 422 for every language when translation is switched off", async () => {
    off = await startPocketBase({ env: { TRANSLATE_PROVIDER: "none" } });
    const someone = await signUpUser(off.url);
    const res = await postJson(off.url, ROUTE, { text: "The cat is on the table.", target_lang: "ES" }, someone.token);
    expect(res.status, res.text).toBe(422);
    expect((res.json as { message: string }).message).toBe("Translation to Spanish is not available on this server.");
    expect((await languages(off.url, someone.token)).json).toEqual({ languages: [] });
  });
});
