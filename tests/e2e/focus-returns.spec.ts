import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createChannel, log, person, send, uncovered, waitLive } from "./helpers";
import { openDetail } from "./header-helpers";
import { superuserClient } from "../integration/pocketbase";

// Keyboard habits: Esc closes the topmost thing only, and focus comes back to the control the user
// left when what they opened goes (a dialog after its action, an edit box, a removed item). Each step
// left focus on the page's body, or closed more than the dialog, before.

async function everyItemReachable(page: Page, menu: Locator) {
  await expect(menu).toBeVisible();
  for (const item of await menu.getByRole("menuitem").all()) expect(await uncovered(item), await item.innerText()).toBe(true);
}

test("focus returns: a dialog in the members panel, editing, search, keywords, and menus at the list's edge", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const page = alice.page;
  await createChannel(page, "Keys Room", `keys-${Date.now()}`);
  await waitLive(page);
  for (let i = 0; i < 14; i++) await send(page, `message ${i} with enough words to take a line`);

  // Esc in a dialog opened from the members panel closes the dialog only.
  await openDetail(page, "Members");
  const panel = page.getByRole("complementary", { name: "Members" });
  const change = panel.getByRole("button", { name: "Change the channel password" });
  await change.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Change the channel password" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(change).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();

  // An edit saved with Enter, then one cancelled with Esc: focus is back on Edit.
  const own = log(page).getByRole("article").filter({ hasText: "message 12 " });
  const edit = own.getByRole("button", { name: "Edit", exact: true });
  const box = own.getByLabel("Edit message");
  await edit.focus();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
  await page.keyboard.type(" edited");
  await page.keyboard.press("Enter");
  await expect(own.getByText("(edited)")).toBeVisible();
  await expect(edit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(box).toBeHidden();
  await expect(edit).toBeFocused();

  // Esc in the search field gives focus back to the composer it was opened from.
  const composer = page.getByLabel("Message", { exact: true });
  await composer.focus();
  await page.keyboard.press("Control+k");
  const search = page.getByRole("combobox", { name: "Search messages" });
  await expect(search).toBeFocused();
  await page.keyboard.type("message");
  await page.keyboard.press("Escape");
  await expect(composer).toBeFocused();

  // A keyword removed by keyboard: focus goes to the next one's Remove, then to the field.
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("menuitem", { name: "Notification settings" }).click();
  const settings = page.getByRole("dialog", { name: "Notification Settings" });
  const keyword = settings.getByLabel("New keyword");
  for (const word of ["alpha", "beta"]) {
    await keyword.fill(word);
    await keyword.press("Enter");
  }
  await settings.getByRole("button", { name: "Remove keyword alpha" }).focus();
  await page.keyboard.press("Enter");
  await expect(settings.getByRole("button", { name: "Remove keyword beta" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(keyword).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();

  // The last message's menus open where every item can be reached (they went under the composer, and
  // an own message's reactions past the window's right edge).
  const last = log(page).getByRole("article").last();
  await last.hover();
  await last.getByRole("button", { name: "More actions" }).click();
  await everyItemReachable(page, page.getByRole("menu", { name: /More actions for the message from/ }));
  await page.keyboard.press("Escape");
  await last.hover();
  await last.getByRole("button", { name: "React" }).click();
  await everyItemReachable(page, page.getByRole("menu", { name: "React with" }));
  await page.keyboard.press("Escape");
});

test("focus returns: a declined request, and an admin's confirmed action", async ({ browser }) => {
  // (alice first: the first account of the server owns it; on a shared stack, made an admin below)
  const alice = await person(browser, "alice");
  const mallory = await person(browser, "mallory");
  const page = alice.page;
  await createChannel(page, "Requests Room", `rq-${Date.now()}`);
  await waitLive(page);

  // Two requests; Decline on the first by keyboard: focus on the second one's first answer, then on
  // "New message" once none is left.
  const eve = await person(browser, "eve");
  for (const asker of [mallory, eve]) {
    await asker.page.getByRole("button", { name: "New message" }).click();
    const picker = asker.page.getByRole("dialog", { name: "New message" });
    await picker.getByLabel("Find by username").fill(alice.user.username);
    await picker.getByLabel("Find by username").press("Enter");
    await expect(picker.getByRole("checkbox", { name: alice.user.username })).toBeChecked();
    await picker.getByRole("button", { name: "Start conversation" }).click();
    await expect(picker).toBeHidden({ timeout: 30_000 });
  }
  const requests = page.getByRole("list", { name: "Message requests" });
  await expect(requests.getByRole("group")).toHaveCount(2, { timeout: 20_000 });
  await requests.getByRole("group").first().getByRole("button", { name: "Decline" }).focus();
  await page.keyboard.press("Enter");
  await expect(requests.getByRole("group")).toHaveCount(1);
  await expect(requests.getByRole("group").getByRole("button", { name: "Accept" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(requests).toBeHidden();
  await expect(page.getByRole("button", { name: "New message" })).toBeFocused();

  // An admin signs someone out of all devices, confirmed by keyboard: focus is back on that button
  // once the list has reloaded (it is disabled meanwhile).
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await su.collection("profiles").update(alice.id, { role: "admin" });
  await page.goto("/admin");
  await page.getByLabel("Search people").fill(mallory.user.username);
  const entry = page.getByRole("list", { name: "People" }).getByRole("listitem", { name: mallory.user.username });
  const signOut = entry.getByRole("button", { name: `Sign out all devices of ${mallory.user.username}` });
  await signOut.focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: `Sign ${mallory.user.username} out of all devices?` });
  await confirm.getByRole("button", { name: "Sign out all devices" }).focus();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeHidden({ timeout: 15_000 });
  await expect(signOut).toBeFocused();
});
