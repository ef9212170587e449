import { readFileSync } from "node:fs";
import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { openDetail } from "./header-helpers";

test("world clock: up to 7 cities, the 8th disabled, Save disabled with none, kept after a reload", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const clock = alice.page.getByRole("list", { name: "World clock" });
  await expect(clock.getByRole("listitem")).toHaveCount(3);
  await expect(clock.getByRole("listitem").first()).toHaveText(/New York\s*\d{2}:\d{2}/);

  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "Set World Clock" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "World Clock Settings" });
  for (const city of ["New York", "London", "Tokyo"]) await dialog.getByLabel(city).uncheck();
  await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();
  const seven = ["New York", "London", "Frankfurt", "Moscow", "Dubai", "Beijing", "Sydney"];
  for (const city of seven) await dialog.getByLabel(city).check();
  for (const city of ["Tokyo", "Los Angeles", "Paris", "Singapore", "Hong Kong"]) await expect(dialog.getByLabel(city)).toBeDisabled();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(clock.getByRole("listitem")).toHaveCount(7);

  await alice.page.reload();
  await expect(clock.getByRole("listitem")).toHaveCount(7);
  await expect(clock).toContainText("Sydney");
  await expect(clock).not.toContainText("Tokyo");
  await alice.context.close();
});

test("news feed: opens against the loopback feed, and a new item appears highlighted after the refresh", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "News Room", "pw-news");
  await openDetail(alice.page, "News Feed");
  const feed = alice.page.getByRole("complementary", { name: "News Feed" });
  await expect(feed.getByText("Security bulletin: key rotation best practices")).toBeVisible();
  await expect(feed.getByText("Rotate & review your keys.")).toBeVisible();
  await expect(feed).not.toContainText("alert(");
  const box = await feed.boundingBox();
  expect(Math.round(box!.width)).toBe(400);

  const title = `Breaking: fresh item ${Date.now()}`;
  await fetch(`${process.env.E2E_PREVIEW_ORIGIN}/feed/items`, { method: "POST", body: JSON.stringify({ title, description: "Just in." }) });
  const item = feed.getByRole("listitem").filter({ hasText: title });
  await expect(item).toBeVisible({ timeout: 15_000 });
  await expect(item).toHaveClass(/highlight/);
  await feed.getByRole("button", { name: "Close news feed" }).click();
  await expect(feed).toBeHidden();
  await alice.context.close();
});

test("WhatsApp: encrypted contact book (add, edit, delete) and hand-off with deep link and web fallback", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await alice.context.addInitScript(() => {
    const opened: string[] = [];
    (window as unknown as { __opened: string[] }).__opened = opened;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.href.startsWith("whatsapp:")) return void opened.push(this.href);
      return click.call(this);
    };
    window.open = (url?: string | URL) => {
      opened.push(String(url));
      return null;
    };
  });
  await alice.page.reload();
  await expect(alice.page.getByText(`@${alice.user.username}`)).toBeVisible();
  await createChannel(alice.page, "Hand-off", "pw-handoff");

  const canaryName = `Canary Contact ${Date.now()}`;
  const canaryPhone = `+1555${String(Date.now()).slice(-7)}`;
  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "WhatsApp Contacts" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "WhatsApp Contacts" });
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Name is required.");
  await dialog.getByLabel("Name").fill(`  ${canaryName}  `);
  await dialog.getByLabel("Phone number").fill("5551234567");
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await expect(dialog.getByRole("alert")).toContainText("country code");
  await dialog.getByLabel("Phone number").fill(canaryPhone);
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await expect(dialog.getByRole("list", { name: "Contacts" })).toContainText(canaryName);

  await dialog.getByRole("button", { name: `Edit ${canaryName}` }).click();
  await dialog.getByLabel("Name").fill(`${canaryName} Jr`);
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await expect(dialog.getByRole("list", { name: "Contacts" })).toContainText(`${canaryName} Jr`);
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await dialog.getByLabel("Name").fill("Zed Temporary");
  await dialog.getByLabel("Phone number").fill("+4915112345678");
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await dialog.getByRole("button", { name: "Delete Zed Temporary" }).click();
  await expect(dialog.getByText("Are you sure you want to delete this contact?")).toBeVisible();
  await dialog.getByRole("button", { name: "Delete contact" }).click();
  await expect(dialog.getByRole("list", { name: "Contacts" })).not.toContainText("Zed Temporary");
  await dialog.getByRole("button", { name: "Close" }).last().click();

  // WhatsApp mode without a contact opens the picker; after choosing, sending hands off.
  await alice.page.getByRole("button", { name: "WhatsApp mode" }).click();
  const picker = alice.page.getByRole("dialog", { name: "Choose a WhatsApp contact" });
  await picker.getByRole("button", { name: `Select ${canaryName} Jr` }).click();
  await expect(alice.page.getByRole("button", { name: `To: ${canaryName} Jr (change)` })).toBeVisible();
  const box = alice.page.getByLabel("Message", { exact: true });
  await box.fill("Meeting moved to 3pm & room B");
  await box.press("Enter");
  const digits = canaryPhone.slice(1);
  const text = encodeURIComponent("Meeting moved to 3pm & room B");
  await expect
    .poll(() => alice.page.evaluate(() => (window as unknown as { __opened: string[] }).__opened))
    .toEqual([`whatsapp://send?phone=${digits}&text=${text}`, `https://api.whatsapp.com/send?phone=${digits}&text=${text}`]);
  await expect(log(alice.page).getByRole("article")).toHaveCount(0);

  // Reloaded on this device, the book decrypts again; the server holds only ciphertext.
  await alice.page.reload();
  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "WhatsApp Contacts" }).click();
  await expect(alice.page.getByRole("dialog", { name: "WhatsApp Contacts" })).toContainText(canaryPhone);
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], canaryName)).toEqual([]);
  expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], canaryPhone)).toEqual([]);
  await alice.context.close();
});

test("dictation fills the composer with a stubbed recogniser, and says so where speech recognition is missing", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await alice.context.addInitScript(() => {
    class FakeRecognition {
      continuous = false;
      interimResults = false;
      lang = "en-US";
      onresult: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      start() {
        setTimeout(
          () => this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript: "hello from dictation" }], { isFinal: true })] }),
          100,
        );
      }
      stop() {
        setTimeout(() => this.onend?.(), 0);
      }
    }
    for (const name of ["SpeechRecognition", "webkitSpeechRecognition"]) {
      Object.defineProperty(window, name, { value: FakeRecognition, configurable: true, writable: true });
    }
  });
  await alice.page.reload();
  await createChannel(alice.page, "Voice Notes", "pw-dictation");
  await alice.page.getByLabel("Message", { exact: true }).fill("Note:");
  await alice.page.getByRole("button", { name: "Dictation", exact: true }).click();
  await expect(alice.page.getByLabel("Message", { exact: true })).toHaveValue("Note: hello from dictation");
  await expect(alice.page.getByRole("button", { name: "Stop dictation" })).toHaveAttribute("aria-pressed", "true");
  await alice.page.getByRole("button", { name: "Stop dictation" }).click();
  await expect(alice.page.getByRole("button", { name: "Dictation", exact: true })).toHaveAttribute("aria-pressed", "false");

  const bare = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["clipboard-read", "clipboard-write"] });
  await bare.addInitScript(() => {
    delete (window as unknown as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition;
    delete (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition;
  });
  const page = await bare.newPage();
  const { newUser, signUp } = await import("./fixtures");
  await signUp(page, newUser("carol"));
  await createChannel(page, "No Speech", "pw-nospeech");
  await page.getByRole("button", { name: "Dictation", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("Speech recognition is not supported in your browser");
  await bare.close();
  await alice.context.close();
});

test("Save Chat downloads a plain-text file named by the channel and date", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const channelId = await createChannel(alice.page, "Export Room", "pw-export");
  await joinAndOpen(bob.page, channelId, "pw-export", "Export Room");
  await waitLive(alice.page);
  await send(alice.page, "First line of the record");
  await send(bob.page, "Reply from Bob\nwith two lines");
  await expect(log(alice.page).getByText("with two lines")).toBeVisible();
  const [download] = await Promise.all([
    alice.page.waitForEvent("download"),
    alice.page.getByRole("button", { name: "Save Chat" }).click(),
  ]);
  const today = new Date();
  const date = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
  expect(download.suggestedFilename()).toBe(`Export Room-${date}.txt`);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text).toContain("ChatCrypt export of #Export Room");
  expect(text).toMatch(new RegExp(`\\] ${alice.user.username}: First line of the record`));
  expect(text).toMatch(new RegExp(`\\] ${bob.user.username}: Reply from Bob\\n  with two lines`));
  await alice.context.close();
  await bob.context.close();
});
