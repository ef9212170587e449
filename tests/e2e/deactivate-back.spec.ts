import type { Browser } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import { changeStatus } from "./admin-helpers";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";

/** Alice, an administrator (the superuser makes her one). */
async function adminAlice(browser: Browser) {
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const alice = await person(browser, "alice");
  await su.collection("profiles").update(alice.id, { role: "admin" });
  return alice;
}

// Carol is deactivated and later reactivated, while Bob's page stays open on their channel. It said
// "carol left the channel" and went on naming her messages plainly; once she was back, it named her
// new ones "carol (deactivated)" until a reload (a deactivated account sends nothing, so a message of
// hers sent after the page learned it means she is back), and her earlier ones so for good.
test("a page left open says who was deactivated, names their messages so, and names them plainly once they are back", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await adminAlice(browser);
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const password = `back-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Comeback", password);
  for (const p of [bob, carol]) await joinAndOpen(p.page, channelId, password, "Comeback");
  await send(carol.page, "before I leave");
  const name = carol.user.username;
  const from = (text: string) => log(bob.page).getByRole("article").filter({ hasText: text }).locator(".sender");
  await expect(from("before I leave")).toHaveText(name);

  // Alice, in a second tab, deactivates Carol; Bob's page stays open all along.
  const console_ = await alice.context.newPage();
  await console_.goto("/admin");
  await changeStatus(console_, name, "deactivate");
  // Bob's open page says what happened (it said "left the channel") and names her messages so.
  await expect(log(bob.page).getByText(`${name} was removed by an administrator`)).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByText(`${name} left the channel`)).toHaveCount(0);
  await expect(from("before I leave")).toHaveText(`${name} (deactivated)`);
  await changeStatus(console_, name, "reactivate");

  // Back, she signs in again, joins the channel again and writes.
  const again = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await again.newPage();
  await signIn(page, carol.user);
  await joinAndOpen(page, channelId, password, "Comeback");
  // Her earlier messages are named plainly again once she is a member again (they stayed "(deactivated)").
  await expect(from("before I leave")).toHaveText(name, { timeout: 20_000 });
  await send(page, "I am back");
  await expect(from("I am back")).toHaveText(name);
  await expect(from("before I leave")).toHaveText(name);
  await again.close();
});

// Dave never wrote anything: his profile cannot be read once he shares nothing with Bob, and Bob's open
// channel said "dave left the channel". Carol wrote in another channel Bob had open before: going back
// there, her message was named plainly (the profile Bob's page kept from before) until a reload.
test("someone deactivated who never wrote is said to be removed, and a channel opened later names the leaver's messages so", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = await adminAlice(browser);
  const [bob, carol, dave] = [await person(browser, "bob"), await person(browser, "carol"), await person(browser, "dave")];
  const password = `quiet-${Date.now()}`;
  const quiet = await createChannel(alice.page, "Quiet", password);
  const loud = await createChannel(alice.page, "Loud", password);
  for (const p of [bob, carol, dave]) {
    await joinAndOpen(p.page, quiet, password, "Quiet");
    await joinAndOpen(p.page, loud, password, "Loud");
  }
  await send(carol.page, "loud words");
  const from = (text: string) => log(bob.page).getByRole("article").filter({ hasText: text }).locator(".sender");
  await expect(from("loud words")).toHaveText(carol.user.username);
  await bob.page.getByRole("button", { name: "# Quiet" }).click();
  await expect(bob.page.getByRole("heading", { name: "# Quiet" })).toBeVisible();

  const console_ = await alice.context.newPage();
  await console_.goto("/admin");
  for (const gone of [dave, carol]) {
    await changeStatus(console_, gone.user.username, "deactivate");
    await expect(log(bob.page).getByText(`${gone.user.username} was removed by an administrator`)).toBeVisible({ timeout: 20_000 });
    await expect(log(bob.page).getByText(`${gone.user.username} left the channel`)).toHaveCount(0);
  }
  await bob.page.getByRole("button", { name: "# Loud" }).click();
  await expect(from("loud words")).toHaveText(`${carol.user.username} (deactivated)`, { timeout: 20_000 });
});
