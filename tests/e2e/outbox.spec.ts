import { superuserClient } from "../integration/pocketbase";
import { expect, NO_ANSWER, signIn, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";

// A send whose answer is lost (stored, but the page never hears so) and a send while the server is
// unreachable: both wait in the outbox as "Not sent, retrying", go through when the connection is
// back, and are stored exactly once.
test("outbox: a failed send is kept, retried, and stored once", async ({ browser, consoleErrors }) => {
  // (sends are cut off and the network taken away on purpose)
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `outbox-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Outbox", password);
  await joinAndOpen(bob.page, channelId, password, "Outbox");

  // 1. The server stores the message but the answer never arrives.
  let lost = 0;
  await alice.page.route(`**/api/channels/${channelId}/messages`, async (route) => {
    if (route.request().method() !== "POST" || lost > 0) return route.fallback();
    lost += 1;
    await route.fetch();
    await route.abort("connectionreset");
  });
  await send(alice.page, "answer lost on the way");
  const pending = alice.page.getByRole("list", { name: "Messages not sent yet" });
  await expect(pending.getByText("Not sent, retrying")).toBeVisible();
  await pending.getByRole("button", { name: "Retry" }).click();
  await expect(pending).toHaveCount(0);
  await expect(log(alice.page).getByText("answer lost on the way")).toHaveCount(1);
  await expect(log(bob.page).getByText("answer lost on the way")).toHaveCount(1);

  // 2. The browser goes offline: the header says so, the message waits, then goes by itself when the
  // connection is back.
  await alice.page.unroute(`**/api/channels/${channelId}/messages`);
  await alice.context.setOffline(true);
  await expect(alice.page.getByRole("status").filter({ hasText: "Offline" })).toBeVisible();
  await send(alice.page, "sent while offline");
  await expect(pending.getByText("sent while offline")).toBeVisible();
  await expect(pending).toContainText("The server is unreachable");
  await alice.context.setOffline(false);
  await expect(log(bob.page).getByText("sent while offline")).toBeVisible({ timeout: 15_000 });
  await expect(pending).toHaveCount(0);

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  expect((await admin.collection("messages").getFullList({ filter: admin.filter("channel = {:c}", { c: channelId }) })).length).toBe(2);
  await alice.context.close();
  await bob.context.close();
});

/** The outbox rows this browser keeps (chatcrypt_outbox), as stored: ids in clear, the message sealed. */
const keptRows = (page: import("@playwright/test").Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open("chatcrypt_outbox", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("pending", { keyPath: "key" }).createIndex("userId", "userId");
        open.onsuccess = () => {
          const all = open.result.transaction("pending").objectStore("pending").getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve(
              (all.result as { sealed: Uint8Array }[]).map((row) =>
                JSON.stringify({ ...row, sealed: new TextDecoder("latin1").decode(row.sealed) }),
              ),
            );
          };
        };
      }),
  );

// The closed-tab drill: a message sent offline is kept on the device (sealed), survives the tab being
// closed and signing out, and is delivered exactly once when the page comes back online.
test("outbox: a message sent offline survives a closed tab and a sign-out, and is delivered once", async ({ browser, consoleErrors }) => {
  // (the network is taken away on purpose)
  consoleErrors.allow(NO_ANSWER);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `outbox-closed-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Outbox Closed", password);
  await joinAndOpen(bob.page, channelId, password, "Outbox Closed");

  await alice.context.setOffline(true);
  await send(alice.page, "typed before the tab closed");
  const pending = alice.page.getByRole("list", { name: "Messages not sent yet" });
  await expect(pending.getByText("typed before the tab closed")).toBeVisible();
  await expect.poll(async () => (await keptRows(alice.page)).length).toBe(1);
  expect((await keptRows(alice.page)).join("")).not.toContain("typed before the tab closed");
  await alice.page.close();

  // Back online in a new tab: the message goes by itself, once.
  await alice.context.setOffline(false);
  const tab = await alice.context.newPage();
  await tab.goto("/");
  await expect(log(bob.page).getByText("typed before the tab closed")).toHaveCount(1, { timeout: 15_000 });
  await tab.getByRole("button", { name: "# Outbox Closed" }).click();
  await expect(log(tab).getByText("typed before the tab closed")).toHaveCount(1);
  await expect.poll(async () => (await keptRows(tab)).length).toBe(0);

  // Offline again, then signing out: the dialog says what happens, and it does.
  await alice.context.setOffline(true);
  await send(tab, "typed before signing out");
  await expect.poll(async () => (await keptRows(tab)).length).toBe(1);
  // online for signing out, but the send is held back until then: the page must not deliver it before
  await tab.route(`**/api/channels/${channelId}/messages`, (route) =>
    route.request().method() === "POST" ? route.abort("internetdisconnected") : route.fallback(),
  );
  await alice.context.setOffline(false);
  // A slow server: signing out takes longer than the outbox's retry interval (5 s), and a retry that
  // met the page's keys already gone took the message for unsendable and dropped it.
  await tab.route("**/api/auth/signout", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    await route.fallback();
  });
  await tab.getByRole("button", { name: /sign out/i }).click();
  const dialog = tab.getByRole("dialog", { name: "Sign out?" });
  await expect(dialog).toContainText(
    "Messages you have not sent yet stay on this device, sealed, and are sent when you sign in here again.",
  );
  await dialog.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(tab.getByRole("button", { name: "Sign In", exact: true })).toBeVisible({ timeout: 20_000 });
  await tab.unroute(`**/api/channels/${channelId}/messages`);
  await tab.unroute("**/api/auth/signout");
  const kept = await keptRows(tab);
  expect(kept).toHaveLength(1);
  expect(kept.join("")).not.toContain("typed before signing out");
  await signIn(tab, alice.user);
  // (signing in derives the keys from the password first: the message goes once the workspace is there)
  await expect(tab.getByText(`@${alice.user.username}`)).toBeAttached({ timeout: 20_000 });
  await expect(log(bob.page).getByText("typed before signing out")).toHaveCount(1, { timeout: 15_000 });
  await expect.poll(async () => (await keptRows(tab)).length).toBe(0);

  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const stored = await admin.collection("messages").getFullList({ filter: admin.filter("channel = {:c}", { c: channelId }) });
  expect(stored).toHaveLength(2);
  await alice.context.close();
  await bob.context.close();
});

test("messages sent faster than the server answers go one by one, in order, never glued to the next", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `quick-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Quick", password);
  await joinAndOpen(bob.page, channelId, password, "Quick");
  await waitLive(alice.page);
  // A slow answer (a busy server, a slow network): each Enter below lands while the message before is on its way.
  await alice.page.route(`**/api/channels/${channelId}/messages`, async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
    await route.fallback();
  });
  const box = alice.page.getByLabel("Message", { exact: true });
  const texts = ["quick one", "quick two", "quick three", "quick four"];
  for (const text of texts) {
    await box.pressSequentially(text);
    await box.press("Enter");
  }
  await expect(box).toHaveValue("");
  for (const page of [alice.page, bob.page]) {
    await expect(log(page).locator(".message-text", { hasText: "quick" })).toHaveText(texts, { timeout: 20_000 });
  }
});
