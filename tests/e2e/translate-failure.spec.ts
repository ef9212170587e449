import http from "node:http";
import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { test as base, expect } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { startWeb, type WebServer } from "./stack";

// A translation engine that fails: this spec runs its own PocketBase with DeepL as the provider, at a
// stand-in on loopback that answers every translation with DeepL's "quota exceeded" (456).

interface FailingStack {
  engine: http.Server;
  requests: string[];
  /** Every text the engine was asked to translate, once per time it was asked. */
  texts: string[];
  pb: RunningPocketBase;
  web: WebServer;
}

const test = base.extend<object, { stack: FailingStack }>({
  stack: [
    // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const requests: string[] = [];
      const texts: string[] = [];
      const engine = http.createServer((req, res) => {
        requests.push(req.url ?? "");
        const body: Buffer[] = [];
        req.on("data", (chunk: Buffer) => body.push(chunk));
        req.on("end", () => {
          try {
            texts.push(...(JSON.parse(Buffer.concat(body).toString("utf8")) as { text: string[] }).text);
          } catch {
            texts.push("(not a DeepL request)");
          }
          res.writeHead(456, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ message: "Quota exceeded" }));
        });
      });
      await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", () => resolve()));
      const address = engine.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const pb = await startPocketBase({
        env: { TRANSLATE_PROVIDER: "deepl", DEEPL_API_KEY: "test-key:fx", DEEPL_API_URL: `http://127.0.0.1:${port}` },
      });
      const web = await startWeb(pb.url);
      await use({ engine, requests, texts, pb, web });
      await web.stop();
      await pb.stop();
      await new Promise((resolve) => engine.close(resolve));
    },
    { scope: "worker" },
  ],
  baseURL: async ({ stack }, use) => use(stack.web.url),
});

const FAILED = "Messages could not be translated (Translation service unavailable). They are shown in their original language.";

test("a failed translation says so once, and the messages stay readable in their original language", async ({
  browser,
  stack,
  consoleErrors,
}) => {
  // (the translation engine fails on purpose)
  consoleErrors.allow(/status of 502 \(Bad Gateway\) \(.*\/api\/translate\)/);
  const alice = await person(browser, "alice", stack.web.url);
  const bob = await person(browser, "bob", stack.web.url);
  // Every alert Bob's page shows, in order.
  await bob.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __alerts: string[] }).__alerts = seen;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLElement && node.matches(".toast"))
            seen.push(`${node.getAttribute("role")}: ${node.textContent?.replace("×", "").trim() ?? ""}`);
    }).observe(document.body, { childList: true, subtree: true });
  });
  const password = `engine-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Failing", password);
  await joinAndOpen(bob.page, channelId, password, "Failing");
  await waitLive(alice.page);

  // DeepL offers every language: none is greyed.
  await bob.page.getByRole("button", { name: "Translate", exact: true }).click();
  await expect(bob.page.getByLabel("Translate incoming messages to").locator("option[disabled]")).toHaveCount(0);
  await bob.page.getByLabel("Translate incoming messages to").selectOption("ES");
  await bob.page.getByRole("button", { name: "Translate messages" }).click();

  const sent = ["The cat is on the table.", "The dog is in the house.", "The bird is in the tree."];
  for (const text of sent) {
    await send(alice.page, text);
    await expect(log(bob.page).getByText(text)).toBeVisible();
  }
  // Each message is asked for once, alone or with others that arrived with it: a failing engine is not
  // sent every earlier message again with each new one.
  const times = (text: string) => stack.texts.filter((asked) => asked === text).length;
  await expect.poll(() => sent.map(times)).toEqual([1, 1, 1]);
  expect(stack.texts.filter((text) => times(text) > 1)).toEqual([]);
  expect(stack.requests.every((url) => url === "/v2/translate")).toBe(true);
  // (shown as an alert, once; read from the record: on a busy machine the toast may have timed out by now)
  const alerts = () => bob.page.evaluate(() => (window as unknown as { __alerts: string[] }).__alerts);
  await expect.poll(alerts, { timeout: 20_000 }).toContain(`alert: ${FAILED}`);
  expect((await alerts()).filter((text) => text.endsWith(FAILED))).toHaveLength(1);
  await expect(log(bob.page).getByText("Translated")).toHaveCount(0);

  // The Translate menu says it too.
  await bob.page.getByRole("button", { name: "Translate: ES" }).click();
  await expect(bob.page.getByRole("group", { name: "Translation" }).getByText(FAILED)).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});
