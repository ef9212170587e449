import type { Browser, Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test, NO_ANSWER } from "./fixtures";
import { createSealed, joinAndOpen, log, openConversation, person, send, waitInGroup } from "./helpers";
import { openDetail } from "./header-helpers";
import { aliceAndBobInDm } from "./dm-helpers";

// Groups nobody can break (issue 45, ADR 0049): a member's page that cannot process an accepted commit
// rejoins from the latest GroupInfo and reads and sends again.

/** The page's next commit reaches the delivery service with one byte of its ciphertext flipped (its header intact). */
async function corruptNextCommit(page: Page, channelId: string) {
  let done = false;
  await page.route(`**/api/sealed/${channelId}/commits`, async (route) => {
    const request = route.request();
    if (done || request.method() !== "POST") return route.continue();
    done = true;
    const body = JSON.parse(request.postData() ?? "{}") as { commit: string };
    const bytes = Buffer.from(body.commit, "base64url");
    bytes[bytes.length - 3] ^= 0x01;
    await route.continue({ postData: JSON.stringify({ ...body, commit: bytes.toString("base64url") }) });
  });
  return () => done;
}

/** Alice and Bob, who share a channel, in a one-to-one Alice started; Bob has read its first message. */
async function directPair(browser: Browser, first: string) {
  const { alice, bob } = await aliceAndBobInDm(browser);
  await openConversation(bob.page, alice.user.username);
  await send(alice.page, first);
  await expect(log(bob.page).getByText(first)).toBeVisible({ timeout: 20_000 });
  return { alice, bob };
}

test("a member's page that received a commit it cannot process rejoins, and reads and sends again", async ({ browser, consoleErrors }) => {
  // (a GroupInfo request is cut off on purpose)
  consoleErrors.allow(NO_ANSWER);
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `recover-${Date.now()}`;
  const channelId = await createSealed(alice.page, "Mended", password);
  await joinAndOpen(bob.page, channelId, password, "Mended");
  for (const p of [alice, bob]) await waitInGroup(p.page);
  await send(alice.page, "before the bad commit");
  await expect(log(bob.page).getByText("before the bad commit")).toBeVisible({ timeout: 20_000 });

  // Bob's page commits new keys, and the commit is damaged on its way: the server accepts it.
  const corrupted = await corruptNextCommit(bob.page, channelId);
  await openDetail(bob.page, "Members");
  await bob.page.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Update keys" }).click();
  await expect.poll(corrupted, { timeout: 20_000 }).toBe(true);
  await expect(bob.page.getByRole("complementary", { name: "Members" }).getByRole("button", { name: "Update keys" })).toBeEnabled({
    timeout: 20_000,
  });
  await bob.page.getByRole("button", { name: "Close members" }).click();

  // Bob writes in the new epoch: Alice's page meets the damaged commit and rejoins. Its first try
  // meets a network error (the GroupInfo does not arrive): it tries again when Alice writes, and goes on.
  let failedOnce = false;
  await alice.page.route(`**/api/sealed/${channelId}/group-info`, (route) => {
    if (failedOnce) return route.continue();
    failedOnce = true;
    return route.abort("connectionreset");
  });
  await send(bob.page, "sent after the bad commit");
  await expect.poll(() => failedOnce, { timeout: 20_000 }).toBe(true);
  await send(alice.page, "alice is back");
  await expect(log(bob.page).getByText("alice is back")).toBeVisible({ timeout: 30_000 });
  await send(bob.page, "bob reads alice again");
  await expect(log(alice.page).getByText("bob reads alice again")).toBeVisible({ timeout: 30_000 });
  // What Alice read before stays shown, and her page says it rejoined.
  await expect(log(alice.page).getByText("before the bad commit")).toBeVisible();
  await expect(alice.page.getByText("This device rejoined the sealed channel")).toBeVisible();
  await expect(alice.page.getByText("This sealed channel could not be opened on this device. Please try again.")).toBeHidden();

  await alice.context.close();
  await bob.context.close();
});

test("a direct conversation whose participant's page cannot process a commit recovers too", async ({ browser }) => {
  test.setTimeout(180_000);
  const { alice, bob } = await directPair(browser, "hello before");
  const corrupted = await corruptNextCommit(bob.page, "*");
  await openDetail(bob.page, "Participants");
  await bob.page.getByRole("complementary", { name: "Participants" }).getByRole("button", { name: "Update keys" }).click();
  await expect.poll(corrupted, { timeout: 20_000 }).toBe(true);
  await bob.page.getByRole("button", { name: "Close participants" }).click();
  await send(bob.page, "sent after the bad commit");
  await send(alice.page, "alice is back");
  await expect(log(bob.page).getByText("alice is back")).toBeVisible({ timeout: 30_000 });
  await send(bob.page, "bob reads alice again");
  await expect(log(alice.page).getByText("bob reads alice again")).toBeVisible({ timeout: 30_000 });
  await expect(log(alice.page).getByText("hello before")).toBeVisible();
  await alice.context.close();
  await bob.context.close();
});

test("a group broken with a garbage commit and GroupInfo: its creator resets the encryption, and both read and send again", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `reset-${Date.now()}`;
  const channelId = await createSealed(alice.page, "Renewed", password);
  await joinAndOpen(bob.page, channelId, password, "Renewed");
  for (const p of [alice, bob]) await waitInGroup(p.page);
  await send(alice.page, "read before the break");
  await expect(log(bob.page).getByText("read before the break")).toBeVisible({ timeout: 20_000 });

  // What the server accepted before it checked commits: garbage for the epoch, and a garbage GroupInfo.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const group = await admin.collection("mls_groups").getFirstListItem(admin.filter("channel = {:c}", { c: channelId }));
  await admin.collection("mls_commits").create({ channel: channelId, epoch: group.epoch, sender: bob.id, data: "Z2FyYmFnZQ" });
  await admin.collection("mls_groups").update(group.id, { epoch: group.epoch + 1, group_info: "Z2FyYmFnZQ" });

  // Bob's page cannot follow nor rejoin: it says so, and stops trying.
  await bob.page.getByLabel("Message", { exact: true }).fill("lost in the break");
  await bob.page.getByLabel("Message", { exact: true }).press("Enter");
  await expect(bob.page.getByText("This sealed channel could not be opened on this device. Please try again.").first()).toBeVisible({
    timeout: 30_000,
  });

  // Bob is not the creator: no reset for him.
  await openDetail(bob.page, "Members");
  const bobPanel = bob.page.getByRole("complementary", { name: "Members" });
  await expect(bobPanel.getByRole("button", { name: "Update keys" })).toBeVisible();
  await expect(bobPanel.getByRole("button", { name: "Reset encryption for this conversation" })).toHaveCount(0);
  await bob.page.getByRole("button", { name: "Close members" }).click();

  // Alice resets: a dialog confirms (Esc closes it, focus returns to the button).
  await openDetail(alice.page, "Members");
  const reset = alice.page
    .getByRole("complementary", { name: "Members" })
    .getByRole("button", { name: "Reset encryption for this conversation" });
  await reset.click();
  const dialog = alice.page.getByRole("dialog", { name: "Reset encryption for this conversation" });
  await expect(dialog).toBeVisible();
  await alice.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(reset).toBeFocused();
  await reset.click();
  await dialog.getByRole("button", { name: "Reset encryption" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await alice.page.getByRole("button", { name: "Close members" }).click();
  await expect(alice.page.getByText(`${alice.user.username} reset the encryption for this conversation.`)).toBeVisible();

  // Bob's page joins the new group as soon as it writes; then both read each other.
  await send(bob.page, "bob in the new group");
  await expect(log(alice.page).getByText("bob in the new group")).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "alice in the new group");
  await expect(log(bob.page).getByText("alice in the new group")).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.getByText(`${alice.user.username} reset the encryption for this conversation.`)).toBeVisible();
  await expect(bob.page.getByText("This sealed channel could not be opened on this device. Please try again.")).toHaveCount(0);
  // What each read before stays readable where it was.
  for (const p of [alice, bob]) await expect(log(p.page).getByText("read before the break")).toBeVisible();

  // The server lets only the creator replace the group.
  const refused = await bob.page.evaluate(async (id) => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const res = await fetch(`/api/sealed/${id}/reset`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ groupInfo: "Z2FyYmFnZQ" }),
    });
    return res.status;
  }, channelId);
  expect(refused).toBe(403);

  await alice.context.close();
  await bob.context.close();
});

test("a direct conversation's creator resets its encryption: the participant joins the new group by its Welcome, and both go on", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { alice, bob } = await directPair(browser, "hello before the reset");

  // Bob did not start it: no reset for him.
  await openDetail(bob.page, "Participants");
  await expect(bob.page.getByRole("complementary", { name: "Participants" }).getByRole("button", { name: "Update keys" })).toBeVisible();
  await expect(bob.page.getByRole("button", { name: "Reset encryption for this conversation" })).toHaveCount(0);
  await bob.page.getByRole("button", { name: "Close participants" }).click();

  await openDetail(alice.page, "Participants");
  await alice.page.getByRole("button", { name: "Reset encryption for this conversation" }).click();
  const dialog = alice.page.getByRole("dialog", { name: "Reset encryption for this conversation" });
  await dialog.getByRole("button", { name: "Reset encryption" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await alice.page.getByRole("button", { name: "Close participants" }).click();
  // Bob's open page learns of the reset live, before anything is sent in the new group.
  await expect(bob.page.getByText(`${alice.user.username} reset the encryption for this conversation.`)).toBeVisible({
    timeout: 10_000,
  });

  await send(alice.page, "first in the new group");
  await expect(log(bob.page).getByText("first in the new group")).toBeVisible({ timeout: 30_000 });
  await send(bob.page, "bob answers in the new group");
  await expect(log(alice.page).getByText("bob answers in the new group")).toBeVisible({ timeout: 30_000 });
  for (const p of [alice, bob]) {
    await expect(p.page.getByText(`${alice.user.username} reset the encryption for this conversation.`)).toBeVisible();
    await expect(log(p.page).getByText("hello before the reset")).toBeVisible();
  }
  // After a reload too.
  await bob.page.reload();
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("first in the new group")).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText("hello before the reset")).toBeVisible();

  // Bob's new device names who reset it before it has read the conversation's members (held back here).
  const laptop = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
  await laptop.route("**/api/channels/*/members", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await route.fallback().catch(() => undefined);
  });
  await signIn(laptop, bob.user);
  await openConversation(laptop, alice.user.username);
  await expect(log(laptop).getByText("first in the new group")).toBeVisible({ timeout: 30_000 });
  await expect(laptop.getByText(`${alice.user.username} reset the encryption for this conversation.`)).toBeVisible({ timeout: 5_000 });
  await expect(laptop.getByText("someone reset the encryption for this conversation.")).toHaveCount(0);

  await laptop.context().close();
  await alice.context.close();
  await bob.context.close();
});
