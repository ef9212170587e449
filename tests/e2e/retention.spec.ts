import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { superuserClient } from "../integration/pocketbase";
import { openConsole } from "./admin-helpers";
import { expect } from "./fixtures";
import {
  channelRow,
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  message,
  openConversation,
  person,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";
import { mailTest as test } from "./mail-stack";
import { openDetail } from "./header-helpers";

// Retention (ADR 65), on its own PocketBase (the sweep covers the whole workspace; the first account is
// its owner): the owner sets 90 days in the console and Bob's open channel header says so at once (a live
// event, no reload); Bob's messages are found by his local search, and so is the owner's direct message
// that Bob read before going back to the channel (another one, which the owner deleted while Bob was in
// the channel, leaves his search at once); the owner shortens the period to 1 day (Bob's header says so
// at once), and a sweep with its clock one day past Bob's last message removes the three before it: Bob's open page drops them at once, his search no
// longer finds them (the direct message neither, though its conversation is not the open one), the last
// one stays; he reloads before his page saved its index without them, and the reloaded page does not
// find them either (the last sweep's clock, ADR 81); his page then saves the index without them (a
// second after the change), and after a reload the header says "1 day" and the saved index finds only
// the last one. (A device that was away drops expired messages from its index by their age:
// tests/unit/retention.test.ts.) Then the owner lets channel admins shorten it, and as the channel's
// creator keeps its messages 30 days (an arrow key on the select only asks; Esc leaves it as it
// was): Bob's open header says so at once.

// a stack of its own, whatever ran before on this worker: its first account is the owner
test.use({ mailStackFor: "retention" });

const tag = randomBytes(3).toString("hex");
const searchField = (page: Page) => page.getByRole("combobox", { name: "Search messages" });
const results = (page: Page) => page.getByRole("listbox", { name: "Search results" });

async function search(page: Page, query: string) {
  await expect(searchField(page)).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Control+k");
  await expect(searchField(page)).toBeFocused();
  await searchField(page).fill(query);
}

/**
 * Keeps, in the page, every search-index chunk the page encrypts to save (engine.ts's serialize():
 * `{"index":...}`), so a test can wait until a save without the swept messages has happened. While
 * `__holdIndexSaves` is set, no chunk is saved (as when the page reloads before its save a second
 * after a change); a reload lets go.
 */
function recordIndexSaves() {
  const w = window as unknown as { __indexSaves: string[]; __holdIndexSaves: boolean };
  w.__indexSaves = [];
  w.__holdIndexSaves = false;
  const encrypt = SubtleCrypto.prototype.encrypt;
  const decoder = new TextDecoder();
  SubtleCrypto.prototype.encrypt = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto["encrypt"]>) {
    const text = decoder.decode(args[2]);
    if (text.startsWith('{"index":')) {
      if (w.__holdIndexSaves) return new Promise<ArrayBuffer>(() => undefined);
      w.__indexSaves.push(text);
    }
    return encrypt.apply(this, args);
  };
}

/** Saves the console's retention policy; a shorter period (it deletes) is confirmed in its dialog first (`shorter`: its title). */
async function savePolicy(page: Page, choose: (section: ReturnType<Page["getByRole"]>) => Promise<void>, saved: string, shorter?: string) {
  const section = page.getByRole("region", { name: "Retention" });
  await choose(section);
  await section.getByRole("button", { name: "Save retention" }).click();
  if (shorter) await page.getByRole("dialog", { name: shorter }).getByRole("button", { name: "Delete older messages" }).click();
  else await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(section.getByRole("status")).toHaveText(saved);
}

test("retention: the console's period in the header, a sweep drops old messages live and from search", async ({ browser, stack }) => {
  test.setTimeout(300_000);
  const owner = await person(browser, "ret_owner", stack.web.url);
  const bob = await person(browser, "ret_bob", stack.web.url);
  const name = `kept-${tag}`;
  const password = `retention-${tag}`;
  const channelId = await createChannel(owner.page, name, password);
  await joinAndOpen(bob.page, channelId, password, name);
  await expect(bob.page.getByText(/Messages are kept for/)).toHaveCount(0);
  await waitLive(bob.page);

  // the owner's other tab sits in another channel: the kept one's count is shown there
  const ownerHome = await owner.context.newPage();
  await ownerHome.goto("/");
  await createChannel(ownerHome, `elsewhere-${tag}`, password);
  await openConsole(owner.page);
  // shortening deletes: it is asked first, and Esc saves nothing
  const section = owner.page.getByRole("region", { name: "Retention" });
  await section.getByRole("radio", { name: "90 days" }).check();
  await section.getByRole("button", { name: "Save retention" }).click();
  const asked = owner.page.getByRole("dialog", { name: "Keep messages for 90 days?" });
  await expect(asked).toContainText("Messages older than 90 days are deleted from the server for everyone");
  // (with how many: none of this workspace's messages is that old)
  await expect(asked).toContainText("They cannot be brought back. No message is older than that now.");
  await owner.page.keyboard.press("Escape");
  await expect(asked).toBeHidden();
  await expect(section.getByRole("button", { name: "Save retention" })).toBeFocused();
  await expect(section.getByRole("status")).toHaveText("");
  await savePolicy(
    owner.page,
    (s) => s.getByRole("radio", { name: "90 days" }).check(),
    "Saved: messages are kept for 90 days.",
    "Keep messages for 90 days?",
  );
  // Bob's open page says the new period without a reload
  await expect(bob.page.getByText("Messages are kept for 90 days")).toBeVisible();
  // and "Forever" again takes it away (the console refused it once a period was saved)
  await savePolicy(owner.page, (s) => s.getByRole("radio", { name: "Forever" }).check(), "Saved: messages are kept forever.");
  await expect(bob.page.getByText(/Messages are kept for/)).toHaveCount(0);
  await savePolicy(
    owner.page,
    (s) => s.getByRole("radio", { name: "90 days" }).check(),
    "Saved: messages are kept for 90 days.",
    "Keep messages for 90 days?",
  );
  await expect(bob.page.getByText("Messages are kept for 90 days")).toBeVisible();
  await bob.context.addInitScript(recordIndexSaves);
  await bob.page.reload();
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible({ timeout: 20_000 });
  await expect(bob.page.getByText("Messages are kept for 90 days")).toBeVisible();
  await waitLive(bob.page);

  // the owner writes to Bob directly; Bob reads it (his search finds it) and goes back to the channel
  const dm = `olddm ${tag} zebra`;
  const deleted = `gone ${tag} yak`;
  await keyPackagesSent(bob, stack.pb);
  await startConversation(ownerHome, [bob.user.username]);
  await waitInGroup(ownerHome);
  await send(ownerHome, dm);
  await send(ownerHome, deleted);
  await openConversation(bob.page, owner.user.username);
  await expect(message(bob.page, deleted)).toBeVisible({ timeout: 30_000 });
  await search(bob.page, `zebra ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(1, { timeout: 20_000 });
  await bob.page.keyboard.press("Escape");
  const backToChannel = async () => {
    await bob.page.getByRole("button", { name: `# ${name}`, exact: true }).click();
    await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
    await waitLive(bob.page);
  };
  await backToChannel();

  // the owner deletes one of them meanwhile, while Bob's page is open on the channel: it leaves his search
  // at once (a result that led nowhere said "This message is no longer there." before: search.spec.ts)
  await search(bob.page, `yak ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(1);
  await bob.page.keyboard.press("Escape");
  const sentLast = message(ownerHome, deleted);
  await sentLast.hover();
  await sentLast.getByRole("button", { name: "Delete", exact: true }).click();
  await ownerHome.getByRole("dialog", { name: "Delete Message" }).getByRole("button", { name: "Delete" }).click();
  await expect(sentLast).toHaveCount(0);
  await search(bob.page, `yak ${tag}`);
  await expect(results(bob.page).getByText("No messages found.")).toBeVisible();
  await bob.page.keyboard.press("Escape");
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible();

  const old = [`ancient ${tag} first`, `ancient ${tag} second`];
  const fresh = `recent ${tag} note`;
  for (const text of [...old, fresh]) {
    await send(bob.page, text);
    await expect(message(bob.page, text)).toBeVisible();
  }
  await search(bob.page, `ancient ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(2, { timeout: 20_000 });
  await bob.page.keyboard.press("Escape");

  await savePolicy(
    owner.page,
    async (s) => {
      await s.getByRole("radio", { name: "A number of days" }).check();
      await s.getByRole("spinbutton", { name: "Number of days" }).fill("1");
    },
    "Saved: messages are kept for 1 day.",
    "Keep messages for 1 day?",
  );
  await expect(bob.page.getByText("Messages are kept for 1 day")).toBeVisible();

  // the sweep, its clock one day past Bob's last message; Bob's page will not get to save its index
  // before he reloads
  await bob.page.waitForFunction(
    (gone) => (window as unknown as { __indexSaves: string[] }).__indexSaves.some((s) => gone.every((g) => s.includes(g))),
    old,
    { timeout: 20_000 },
  );
  await bob.page.evaluate(() => ((window as unknown as { __holdIndexSaves: boolean }).__holdIndexSaves = true));
  const su = await superuserClient(stack.pb.url, stack.pb.superuser);
  const sent = await su.collection("messages").getFullList({ filter: `channel = "${channelId}" && sender = "${bob.id}"`, sort: "created" });
  expect(sent).toHaveLength(3);
  await expect(channelRow(ownerHome, name).getByRole("img", { name: /unread/ })).toHaveAccessibleName("3 unread");
  const now = new Date(Date.parse(String(sent[2].created).replace(" ", "T")) + 24 * 60 * 60 * 1000).toISOString();
  const report = await su.send<{ messages: number; longest_lock_ms: number }>(`/api/chat/retention/sweep?now=${encodeURIComponent(now)}`, {
    method: "POST",
  });
  expect(report.messages).toBe(3);

  // Bob's open page drops them at once; the last one stays; the owner's count goes from 3 to 1 at once;
  // the direct message leaves his search at once too, though he is in the channel
  for (const text of old) await expect(message(bob.page, text)).toHaveCount(0);
  await search(bob.page, `zebra ${tag}`);
  await expect(results(bob.page).getByText("No messages found.")).toBeVisible();
  await bob.page.keyboard.press("Escape");
  await expect(channelRow(ownerHome, name).getByRole("img", { name: /unread/ })).toHaveAccessibleName("1 unread");
  await expect(message(bob.page, fresh)).toBeVisible();
  await search(bob.page, `ancient ${tag}`);
  await expect(results(bob.page).getByText("No messages found.")).toBeVisible();
  await bob.page.keyboard.press("Escape");

  await search(bob.page, `recent ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(1);
  await bob.page.keyboard.press("Escape");

  // he reloads before his page saved its index: the saved one still has them, and the page drops them
  // by the last sweep's clock (ADR 81), not only by its own
  await bob.page.reload();
  await expect(message(bob.page, fresh)).toBeVisible({ timeout: 20_000 });
  await search(bob.page, `ancient ${tag}`);
  await expect(results(bob.page).getByText("No messages found.")).toBeVisible({ timeout: 20_000 });
  await searchField(bob.page).fill(`recent ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(1, { timeout: 20_000 });
  await bob.page.keyboard.press("Escape");

  // the page saves its index without them (one second after the drop)
  await bob.page.waitForFunction(
    ([kept, gone]) =>
      (window as unknown as { __indexSaves: string[] }).__indexSaves.some((s) => s.includes(kept) && !gone.some((g) => s.includes(g))),
    [fresh, old] as const,
    { timeout: 20_000 },
  );

  // after a reload the header says the new period; the history is what the server kept, and the index
  // loaded from this device finds the last message and not the swept ones
  await bob.page.reload();
  await expect(bob.page.getByText("Messages are kept for 1 day")).toBeVisible({ timeout: 20_000 });
  await expect(message(bob.page, fresh)).toBeVisible();
  for (const text of old) await expect(message(bob.page, text)).toHaveCount(0);
  await search(bob.page, `recent ${tag}`);
  await expect(results(bob.page).getByRole("option")).toHaveCount(1, { timeout: 20_000 });
  await searchField(bob.page).fill(`ancient ${tag}`);
  await expect(results(bob.page).getByText("No messages found.")).toBeVisible();
  await bob.page.keyboard.press("Escape");

  // the owner lets channel admins shorten it, and (the channel's creator) keeps this one's for 30 days
  await savePolicy(
    owner.page,
    async (s) => {
      await s.getByRole("radio", { name: "90 days" }).check();
      await s.getByRole("checkbox", { name: "Channel admins may keep their channel's messages for a shorter time" }).check();
    },
    "Saved: messages are kept for 90 days.",
  );
  await owner.page.goto(`/c/${channelId}`);
  await expect(owner.page.getByText("Messages are kept for 90 days")).toBeVisible({ timeout: 20_000 });
  await openDetail(owner.page, "Members");
  const panel = owner.page.getByRole("complementary", { name: "Members" });
  // a period that deletes sooner asks first, as the console's does: an arrow key on the select deletes nothing
  const select = panel.getByRole("combobox", { name: "Keep this channel's messages" });
  await select.focus();
  await owner.page.keyboard.press("ArrowDown");
  const asks = owner.page.getByRole("dialog", { name: "Keep this channel's messages for 7 days?" });
  await expect(asks).toBeVisible();
  await expect(asks.getByText("No message is older than that now.")).toBeVisible();
  await owner.page.keyboard.press("Escape");
  await expect(asks).toBeHidden();
  await expect(select).toBeFocused();
  await expect(select).toHaveValue("0");
  await expect(owner.page.getByText("Messages are kept for 90 days")).toBeVisible();
  await select.selectOption({ label: "30 days" });
  const confirm = owner.page.getByRole("dialog", { name: "Keep this channel's messages for 30 days?" });
  await confirm.getByRole("button", { name: "Delete older messages" }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByText("Saved: this channel keeps messages for 30 days.")).toBeVisible();
  await expect(select).toBeFocused();
  await expect(owner.page.getByText("Messages are kept for 30 days")).toBeVisible();
  await expect(bob.page.getByText("Messages are kept for 30 days")).toBeVisible();
  await expect(panel.getByRole("combobox", { name: "Keep this channel's messages" }).locator("option")).toHaveText([
    "As the workspace: 90 days",
    "7 days",
    "30 days",
  ]);
  await bob.page.reload();
  await expect(bob.page.getByText("Messages are kept for 30 days")).toBeVisible({ timeout: 20_000 });
});
