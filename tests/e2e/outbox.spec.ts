import { superuserClient } from "../integration/pocketbase";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send } from "./helpers";

// A send whose answer is lost (stored, but the page never hears so) and a send while the server is
// unreachable: both wait in the outbox as "Not sent, retrying", go through when the connection is
// back, and are stored exactly once.
test("outbox: a failed send is kept, retried, and stored once", async ({ browser }) => {
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
