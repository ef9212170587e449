// POST /api/chat/translate with the other providers, LibreTranslate and DeepL, against a stand-in on
// loopback (translate.test.ts runs it with Apertium).

import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, signUpUser, startPocketBase, type RunningPocketBase } from "./pocketbase";
import { ROUTE, SERVICE_UNAVAILABLE, languages, texts } from "./translate-api";

// LibreTranslate and DeepL cannot run here: a stand-in on loopback answers as their documented APIs
// do and records what the hook sent, to check the wire format of both providers.
describe("other providers, against a stand-in speaking their API", () => {
  interface Seen {
    method: string;
    url: string;
    headers: http.IncomingHttpHeaders;
    body: unknown;
  }
  const seen: Seen[] = [];
  let standIn: http.Server;
  let standInUrl: string;
  let deepl: RunningPocketBase | undefined;
  let libre: RunningPocketBase | undefined;
  let deeplStatus = 200;

  beforeAll(async () => {
    standIn = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        const answer = (status: number, value: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json" });
          res.end(JSON.stringify(value));
        };
        if (req.url === "/v2/translate") {
          const input = (body as { text: string[]; target_lang: string }) ?? { text: [], target_lang: "" };
          return deeplStatus === 200
            ? answer(200, {
                translations: input.text.map((t) => ({ detected_source_language: "EN", text: `[${input.target_lang}] ${t}` })),
              })
            : answer(deeplStatus, { message: "Quota exceeded" });
        }
        if (req.url === "/languages") {
          return answer(200, [
            { code: "en", name: "English", targets: ["es", "pt-BR"] },
            { code: "es", name: "Spanish", targets: ["en"] },
            { code: "pt-BR", name: "Portuguese (Brazil)", targets: ["en"] },
          ]);
        }
        if (req.url === "/translate") {
          const input = body as { q: string[]; target: string };
          return answer(200, { translatedText: input.q.map((q) => `<${input.target}> ${q}`) });
        }
        answer(404, { error: "Not Found" });
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", () => resolve()));
    const address = standIn.address();
    standInUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await deepl?.stop();
    await libre?.stop();
    await new Promise((resolve) => standIn?.close(resolve));
  });

  it("DeepL: sends the texts with the key and the code as it is, and answers its translations", async () => {
    deepl = await startPocketBase({
      env: { TRANSLATE_PROVIDER: "deepl", DEEPL_API_KEY: "test-key:fx", DEEPL_API_URL: standInUrl },
    });
    const someone = await signUpUser(deepl.url);

    const res = await postJson(deepl.url, ROUTE, { text: ["Hello", "", "World"], target_lang: "pt-br" }, someone.token);
    expect(res.status, res.text).toBe(200);
    expect(texts(res.json)).toEqual(["[PT-BR] Hello", "", "[PT-BR] World"]);

    expect((await languages(deepl.url, someone.token)).json.languages).toHaveLength(33);

    const request = seen.filter((item) => item.url === "/v2/translate").at(-1);
    expect(request?.method).toBe("POST");
    expect(request?.headers.authorization).toBe("DeepL-Auth-Key test-key:fx");
    expect(request?.body).toEqual({ text: ["Hello", "World"], target_lang: "PT-BR" });

    deeplStatus = 456;
    const failed = await postJson(deepl.url, ROUTE, { text: "Hello", target_lang: "DE" }, someone.token);
    deeplStatus = 200;
    expect(failed.status).toBe(502);
    expect((failed.json as { message: string }).message).toBe(SERVICE_UNAVAILABLE);
  });

  it("LibreTranslate: maps the code, detects the source, and knows which languages it lacks", async () => {
    libre = await startPocketBase({
      env: { TRANSLATE_PROVIDER: "libretranslate", LIBRETRANSLATE_URL: standInUrl, LIBRETRANSLATE_API_KEY: "lt-key" },
    });
    const someone = await signUpUser(libre.url);

    const res = await postJson(libre.url, ROUTE, { text: "Hello", target_lang: "PT-BR" }, someone.token);
    expect(res.status, res.text).toBe(200);
    expect(texts(res.json)).toEqual(["<pt-BR> Hello"]);
    const request = seen.filter((item) => item.url === "/translate").at(-1);
    expect(request?.body).toEqual({ q: ["Hello"], source: "auto", target: "pt-BR", format: "text", api_key: "lt-key" });

    const spanish = await postJson(libre.url, ROUTE, { text: "Hello", target_lang: "ES" }, someone.token);
    expect(texts(spanish.json)).toEqual(["<es> Hello"]);

    const german = await postJson(libre.url, ROUTE, { text: "Hello", target_lang: "DE" }, someone.token);
    expect(german.status).toBe(422);
    expect((german.json as { message: string }).message).toBe("Translation to German is not available on this server.");

    expect((await languages(libre.url, someone.token)).json).toEqual({ languages: ["EN-GB", "EN-US", "ES", "PT-BR"] });

    // the language list is asked once and cached
    expect(seen.filter((item) => item.url === "/languages")).toHaveLength(1);
  });
});
