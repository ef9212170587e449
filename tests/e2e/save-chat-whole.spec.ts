import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { deriveChannelSecrets, encryptMessage, importKeyBundle, type StoredKeyBundle } from "../../app/crypto";
import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, log, person, waitLive } from "./helpers";

// Save Chat wrote only the messages the list had loaded (the latest 200 of 260; after a jump to an old
// message, the 104 around it) and said nothing of the rest. It saves the whole conversation now.

const storedKeys = async (page: Page) =>
  JSON.parse(await page.evaluate(() => localStorage.getItem("chatcrypt_keys") ?? "{}")) as StoredKeyBundle;

async function saved(page: Page): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Save Chat" }).click()]);
  return readFileSync((await download.path())!, "utf8")
    .split("\n")
    .filter((line) => line.includes("numbered message"));
}

test("Save Chat of a channel with 260 messages writes all of them, also after a jump to an old one", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const password = `exp-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Long Export", password);
  // 260 messages of Alice's, sealed and signed as her page would, stored directly.
  const keys = await importKeyBundle(await storedKeys(alice.page));
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const channel = await su.collection("channels").getOne(channelId);
  const { key } = await deriveChannelSecrets(password, channelId, channel.kdf_iterations as number);
  for (let i = 0; i < 260; i++) {
    const envelope = await encryptMessage({
      key,
      channelId,
      senderId: alice.id,
      plaintext: `numbered message ${i}`,
      signingKey: keys.rsaPrivateKey,
    });
    await su.collection("messages").create({ channel: channelId, sender: alice.id, encrypted_content: envelope });
  }
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "# Long Export" }).click();
  await waitLive(alice.page);
  await expect(log(alice.page).getByText("numbered message 259", { exact: true })).toBeVisible({ timeout: 30_000 });
  const all = Array.from({ length: 260 }, (_, i) => `numbered message ${i}`);
  expect((await saved(alice.page)).map((line) => line.replace(/^\[[^\]]+\] [^:]+: /, ""))).toEqual(all);

  // An old message opened from search: the list holds the page around it; the file still holds all.
  await alice.page.keyboard.press("Control+k");
  await alice.page.getByRole("combobox", { name: "Search messages" }).fill("numbered message 3");
  const hit = alice.page
    .getByRole("listbox", { name: "Search results" })
    .getByRole("option")
    .filter({ hasText: /message 3$/ });
  await hit.first().click();
  await expect(log(alice.page).locator("article.highlight")).toContainText("numbered message 3", { timeout: 20_000 });
  expect(await saved(alice.page)).toHaveLength(260);
});
