import type { Page, Request } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { deriveChannelSecrets, encryptMessage, importKeyBundle, type StoredKeyBundle } from "../../app/crypto";
import { encodeBody } from "../../app/conversation/messages/body";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test, signOut } from "./fixtures";
import { createChannel, joinAndOpen, log, person } from "./helpers";
import { sendFile } from "./send-file";

// Issue 14: local encrypted search. The history is seeded through PocketBase (as a superuser, so no
// rate limit applies) with envelopes encrypted and signed in Node by the app's own crypto, exactly as
// the page would have posted them. Alice then signs in on a new device, whose index starts empty.

const tag = randomBytes(3).toString("hex");
const OLDEST = "Zéphyrquokka";
const names = { alpha: `alpha-${tag}`, beta: `beta-${tag}`, gamma: `gamma-${tag}` };
const SIZES = { alpha: 400, beta: 50, gamma: 50 };

type Author = { id: string; keys: Awaited<ReturnType<typeof importKeyBundle>> };

const storedKeys = async (page: Page) =>
  JSON.parse(await page.evaluate(() => localStorage.getItem("chatcrypt_keys") ?? "{}")) as StoredKeyBundle;

/** Everything a request carries: URL, headers, body. */
const requestText = (request: Request) => `${request.url()}\n${JSON.stringify(request.headers())}\n${request.postData() ?? ""}`;

const searchField = (page: Page) => page.getByRole("combobox", { name: "Search messages" });
const results = (page: Page) => page.getByRole("listbox", { name: "Search results" });

async function search(page: Page, query: string) {
  await expect(searchField(page)).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Control+k");
  await expect(searchField(page)).toBeFocused();
  await searchField(page).fill(query);
}

test("local search: backfilled, filtered, opened at the message, reused after a reload, never sent, encrypted at rest", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "srch_alice");
  const bob = await person(browser, "srch_bob");
  const password = `search-${tag}`;
  const ids: Record<keyof typeof names, string> = { alpha: "", beta: "", gamma: "" };
  for (const key of Object.keys(names) as (keyof typeof names)[]) {
    ids[key] = await createChannel(alice.page, names[key], password);
    await joinAndOpen(bob.page, ids[key], password, names[key]);
  }
  const authors: Author[] = [
    { id: alice.id, keys: await importKeyBundle(await storedKeys(alice.page)) },
    { id: bob.id, keys: await importKeyBundle(await storedKeys(bob.page)) },
  ];
  await alice.context.close();
  await bob.context.close();

  // ---- seed: 500 messages, alpha's 200 oldest before its first page of 200 ----
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const seeded: Record<string, { id: string; text: string; sender: string }[]> = {};
  for (const key of Object.keys(names) as (keyof typeof names)[]) {
    const channel = await admin.collection("channels").getOne(ids[key]);
    const { key: channelKey } = await deriveChannelSecrets(password, ids[key], channel.kdf_iterations as number);
    seeded[key] = [];
    for (let i = 0; i < SIZES[key]; i++) {
      const author = authors[i % 2];
      const text =
        key === "alpha" && i === 0
          ? `The oldest note: the ${OLDEST} protocol is encrypted end to end`
          : `${key} note ${i}${i % 10 === 5 ? " about the quarterly numbers" : ""}`;
      const envelope = await encryptMessage({
        key: channelKey,
        channelId: ids[key],
        senderId: author.id,
        plaintext: text,
        signingKey: author.keys.rsaPrivateKey,
      });
      const record = await admin.collection("messages").create({ channel: ids[key], sender: author.id, encrypted_content: envelope });
      seeded[key].push({ id: record.id, text, sender: author.id });
    }
  }
  const quarterly = (key: keyof typeof names, sender?: string) =>
    seeded[key].filter((m) => m.text.includes("quarterly") && (!sender || m.sender === sender)).length;

  // ---- a new device: the backfill indexes every channel's whole history ----
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signIn(page, alice.user);
  await search(page, "");
  await expect(page.getByText("Indexed 500 of 500 messages")).toBeVisible({ timeout: 60_000 });

  // Every request from here on is recorded: none may carry a query.
  const sent: string[] = [];
  page.on("request", (request) => sent.push(requestText(request)));

  // Case-, accent-insensitive prefix search finds the oldest message and opens the channel at it.
  await search(page, "zephyrq");
  const oldest = results(page).getByRole("option");
  await expect(oldest).toHaveCount(1);
  await expect(results(page).getByRole("group", { name: `# ${names.alpha}` })).toBeVisible();
  await expect(oldest.locator("mark")).toHaveText(OLDEST);
  await expect(oldest).toContainText(alice.user.username);
  await searchField(page).press("Enter");
  await expect(page.getByRole("heading", { name: `# ${names.alpha}` })).toBeVisible();
  const target = log(page).locator(`#message-${seeded.alpha[0].id}`);
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target).toHaveClass(/highlight/);
  await expect(target).toContainText(OLDEST);

  // in: narrows to one channel, from: to one sender, both together to both.
  await search(page, "quarterly");
  await expect(results(page).getByRole("option")).toHaveCount(quarterly("alpha") + quarterly("beta") + quarterly("gamma"));
  await search(page, `in:#${names.beta} QUARTERLY`);
  await expect(results(page).getByRole("option")).toHaveCount(quarterly("beta"));
  await expect(results(page).getByRole("group")).toHaveCount(1);
  await expect(results(page).getByRole("group", { name: `# ${names.beta}` })).toBeVisible();
  await search(page, `from:@${bob.user.username} quart`);
  await expect(results(page).getByRole("option")).toHaveCount(
    quarterly("alpha", bob.id) + quarterly("beta", bob.id) + quarterly("gamma", bob.id),
  );
  for (const text of await results(page).locator(".search-hit-sender").allInnerTexts()) expect(text).toBe(bob.user.username);
  await search(page, `in:#${names.gamma} from:@${alice.user.username} quarterly`);
  await expect(results(page).getByRole("option")).toHaveCount(quarterly("gamma", alice.id));
  await search(page, `in:#${names.gamma} nosuchword`);
  await expect(results(page).getByText("No messages found.")).toBeVisible();

  // File names are indexed too (the open channel shows the decrypted name), and has:file finds them.
  await sendFile(page, { name: "Wombatplan-2026.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await expect(log(page).getByText("Wombatplan-2026.pdf")).toBeVisible({ timeout: 20_000 });
  await search(page, "has:file womb");
  await expect(results(page).getByRole("option")).toHaveCount(1);
  await expect(results(page).locator("mark")).toHaveText("Wombatplan");
  await search(page, "has:file quarterly");
  await expect(results(page).getByText("No messages found.")).toBeVisible();

  // Nothing of any query or indexed word left the page.
  for (const word of ["zephyrq", "Zéphyrquokka", "quarterly", "QUARTERLY", "quart", "nosuchword", "in:#", "from:@", "womb", "Wombatplan"]) {
    for (const form of [word, encodeURIComponent(word)])
      expect(sent.filter((text) => text.toLowerCase().includes(form.toLowerCase()))).toEqual([]);
  }

  // The index at rest is ciphertext: no indexed word appears in IndexedDB.
  const stored = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("chatcrypt_search");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction("chunks").objectStore("chunks").getAll();
          all.onsuccess = () => {
            const rows = all.result as { sealed: Uint8Array }[];
            resolve(
              JSON.stringify(rows.map((r) => ({ ...r, sealed: undefined }))) +
                rows.map((r) => new TextDecoder().decode(r.sealed) + String.fromCharCode(...r.sealed)).join(""),
            );
          };
        };
      }),
  );
  expect(stored.length).toBeGreaterThan(10_000);
  for (const word of ["zephyrquokka", "Zéphyrquokka", "quarterly", "alpha note", "protocol"])
    expect(stored.toLowerCase()).not.toContain(word.toLowerCase());

  // Edits replace the indexed text; deleted messages leave the index (live events).
  const beta = await admin.collection("channels").getOne(ids.beta);
  const { key: betaKey } = await deriveChannelSecrets(password, ids.beta, beta.kdf_iterations as number);
  const edited = seeded.beta[3];
  const editor = authors.find((a) => a.id === edited.sender)!;
  await admin.collection("messages").create({
    channel: ids.beta,
    sender: editor.id,
    kind: "edit",
    target: edited.id,
    encrypted_content: await encryptMessage({
      key: betaKey,
      channelId: ids.beta,
      senderId: editor.id,
      plaintext: encodeBody({ text: "rewritten about the marmalade budget", files: [], edits: edited.id }),
      signingKey: editor.keys.rsaPrivateKey,
    }),
  });
  await search(page, "marmal");
  await expect(results(page).getByRole("option")).toHaveCount(1, { timeout: 15_000 });
  await search(page, "beta note 3");
  await expect(results(page).locator(".search-hit-text", { hasText: "beta note 30" })).toHaveCount(1);
  await expect(results(page).locator(".search-hit-text", { hasText: /^beta note 3$/ })).toHaveCount(0);
  await admin.collection("messages").delete(seeded.alpha[0].id);
  await search(page, "zephyrq");
  await expect(results(page).getByText("No messages found.")).toBeVisible({ timeout: 15_000 });

  // ---- a reload reuses the saved index: no page of history is fetched again ----
  await page.waitForTimeout(1_500); // the debounced save
  const history: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/channels\/[^/]+\/messages\?/.test(request.url()) && !request.url().includes("after=")) history.push(request.url());
  });
  await page.reload();
  await expect(page.getByText(`@${alice.user.username}`)).toBeVisible({ timeout: 20_000 });
  await search(page, "marmal");
  // 500 seeded, one deleted, one file added
  await expect(page.getByText("Indexed 500 of 500 messages")).toBeVisible();
  await expect(results(page).getByRole("option")).toHaveCount(1);
  await page.waitForTimeout(1_000);
  // Only the open channel's latest page (what the message list shows) may be asked for; no backfill page.
  expect(history.filter((url) => url.includes("count=1") || url.includes("before="))).toEqual([]);

  // ---- a message deleted while no page was open: a result leading to it finds it gone and drops it ----
  const gone = seeded.gamma[15];
  await page.goto("about:blank");
  await admin.collection("messages").delete(gone.id);
  await page.goto("/");
  await search(page, "gamma note 15");
  await expect(results(page).getByRole("option")).toHaveCount(1);
  await searchField(page).press("Enter");
  await expect(page.getByText("This message is no longer there.")).toBeVisible({ timeout: 15_000 });
  await search(page, "gamma note 15");
  await expect(results(page).getByText("No messages found.")).toBeVisible();

  // ---- sign-out removes the index from this browser ----
  await searchField(page).press("Escape");
  await signOut(page);
  await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();
  await expect.poll(() => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain("chatcrypt_search");
  await context.close();
});
