import { superuserClient } from "../integration/pocketbase";
import { expect, signIn, test } from "./fixtures";
import { createChannel, joinAndOpen, person, send } from "./helpers";
import { openThread, reply } from "./thread-helpers";

// A thread seen on one device is seen on all of the user's devices (ADR 0097): the Threads view of
// Bob's laptop dropped "1 unread" only once he opened the thread there too, and a device he signed in
// to later listed every thread as unread. What the server keeps is a message id and a time.
test("a thread read on the phone is read on the laptop at once, and on a device signed in later", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `seen-${Date.now()}`;
  const channelId = await createChannel(bob.page, "Seen Everywhere", password);
  await joinAndOpen(alice.page, channelId, password, "Seen Everywhere");
  await send(bob.page, "the root bob wrote");
  const panel = await openThread(alice.page, "the root bob wrote");
  await reply(panel, "a reply bob has not seen");

  const threads = (page: typeof bob.page) => page.getByRole("button", { name: /^Threads/ });
  await expect(threads(bob.page)).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  // Bob's phone: the same thread unread there, read there.
  const phoneContext = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const phone = await phoneContext.newPage();
  await signIn(phone, bob.user);
  await phone.getByRole("button", { name: "Show channels" }).tap();
  await expect(threads(phone)).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  await threads(phone).tap();
  await phone.getByRole("region", { name: "Threads" }).getByRole("button", { name: "# Seen Everywhere: 1 new reply" }).tap();
  const phonePanel = phone.getByRole("complementary", { name: "Thread" });
  await expect(phonePanel.getByText("a reply bob has not seen")).toBeVisible({ timeout: 20_000 });

  // The laptop, open all along, drops it without a reload.
  await expect(threads(bob.page)).toHaveText("Threads", { timeout: 10_000 });
  // A device Bob signs in to now does not list it either.
  const later = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const laterPage = await later.newPage();
  await signIn(laterPage, bob.user);
  await expect(laterPage.getByText(`@${bob.user.username}`)).toBeAttached({ timeout: 20_000 });
  await expect(threads(laterPage)).toHaveText("Threads");

  // A new reply, once the phone's thread is closed, is unread on every device again (while a device
  // shows the thread, Bob sees the reply there).
  await phonePanel.getByRole("button", { name: "Back" }).tap();
  await expect(phonePanel).toBeHidden();
  await reply(panel, "a second reply");
  await expect(threads(bob.page)).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  await expect(threads(laterPage)).toHaveText("Threads (1 unread)", { timeout: 20_000 });
  await phone.getByRole("button", { name: "Show channels" }).tap();
  await expect(threads(phone)).toHaveText("Threads (1 unread)", { timeout: 20_000 });

  // The server holds the root's id and a time, for Bob only.
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const rows = await su.collection("thread_reads").getFullList({ filter: su.filter("user = {:u}", { u: bob.id }) });
  expect(
    rows.map((r) =>
      Object.keys(r)
        .filter((k) => !["id", "collectionId", "collectionName", "created", "updated"].includes(k))
        .sort(),
    ),
  ).toEqual([["root", "seen", "user"]]);
  for (const context of [alice.context, bob.context, phoneContext, later]) await context.close();
});
