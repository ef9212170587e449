import { superuserClient } from "../integration/pocketbase";
import { aliceAndBobInDm } from "./dm-helpers";
import { expect, NO_ANSWER, test } from "./fixtures";
import { log, messageTexts, openConversation, send, waitLive } from "./helpers";

// A page that closes with a message still on its way (kept in its outbox, not yet taken by the server)
// hands it to the browser's other open page, which sends it at once: it used to wait until that page
// was reloaded, and then arrived after what was written meanwhile.

test("a direct message on its way as its tab closes goes from the other tab at once, before what is written next", async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(NO_ANSWER);
  const { alice, bob } = await aliceAndBobInDm(browser);
  await send(alice.page, "first, before the second tab");
  await openConversation(bob.page, alice.user.username);
  await expect(log(bob.page).getByText("first, before the second tab")).toBeVisible({ timeout: 30_000 });
  const other = await alice.context.newPage();
  await other.goto(alice.page.url());
  await expect(log(other).getByText("first, before the second tab")).toBeVisible({ timeout: 30_000 });
  await waitLive(other);

  // The closing tab's send does not reach the server (its network is away for it alone): it waits in
  // that tab's outbox, and the tab is closed.
  await alice.page.route("**/api/channels/*/messages", (route) =>
    route.request().method() === "POST" ? route.abort("internetdisconnected") : route.fallback(),
  );
  await send(alice.page, "second, sent as the tab closed");
  await expect(alice.page.getByRole("list", { name: "Messages not sent yet" }).getByText("second, sent as the tab closed")).toBeVisible();
  await alice.page.close();

  await expect(log(bob.page).getByText("second, sent as the tab closed")).toBeVisible({ timeout: 15_000 });
  await expect(log(other).getByText("second, sent as the tab closed")).toHaveCount(1, { timeout: 15_000 });
  await send(other, "third, from the other tab");
  const typed = ["first, before the second tab", "second, sent as the tab closed", "third, from the other tab"];
  for (const page of [bob.page, other]) await expect.poll(() => messageTexts(page), { timeout: 15_000 }).toEqual(typed);
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const channelId = new URL(other.url()).pathname.split("/").pop()!;
  expect(await su.collection("messages").getFullList({ filter: su.filter("channel = {:c}", { c: channelId }) })).toHaveLength(3);
});
