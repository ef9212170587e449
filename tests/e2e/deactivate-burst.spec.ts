import { randomBytes } from "node:crypto";
import { superuserClient } from "../integration/pocketbase";
import { administrator } from "./admin-helpers";
import { expect, test } from "./fixtures";
import { createSealed, joinAndOpen, keyPackagesSent, person, startConversation, waitLive } from "./helpers";

// Deactivating someone who shares many conversations with the only member page online (ADR 0056): the
// page commits each removal with two requests where its state is behind the group (the commits and the
// epoch's messages in one, the commit answered with what arrived in the epoch meanwhile), and with one
// where the live event named the epoch its state is at: a direct conversation (its list, then the
// removal) with two. It reads no page of an epoch's messages on its own, and reloads its lists once,
// after the removals. Before, it caught up before every first commit (a direct conversation: three
// requests), and earlier still read each epoch twice around each commit and reloaded the lists twice.

test("a burst of removals: two requests per conversation whose page is behind, one per commit where it is current, no epoch page read, the lists reloaded once", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const admin = await administrator(browser, "admin");
  const carol = await person(browser, "carol");
  const bob = await person(browser, "bob");
  const tag = randomBytes(3).toString("hex");

  // Three sealed channels Carol joined, a conversation with her alone and one with her and Bob.
  const sealed: string[] = [];
  for (let i = 0; i < 3; i++) {
    const name = `Burst ${i} ${tag}`;
    sealed.push(await createSealed(admin.page, name, `burst-${i}-${tag}`));
    await joinAndOpen(carol.page, sealed[i], `burst-${i}-${tag}`, name);
  }
  await joinAndOpen(bob.page, sealed[0], `burst-0-${tag}`, `Burst 0 ${tag}`);
  await keyPackagesSent(carol);
  await keyPackagesSent(bob);
  await startConversation(admin.page, [carol.user.username]);
  await waitLive(admin.page);
  await startConversation(admin.page, [carol.user.username, bob.user.username], `Trio ${tag}`);
  await expect(admin.page.getByRole("heading", { name: `@ Trio ${tag}` })).toBeVisible({ timeout: 30_000 });
  await waitLive(admin.page);
  // Only the admin's page is online.
  await carol.context.close();
  await bob.context.close();
  const groups = await su.collection("mls_groups").getFullList({ fields: "channel,group_info" });
  const holding = (list: typeof groups) =>
    list
      .filter((g) => Buffer.from(g.group_info as string, "base64url").includes(Buffer.from(`${carol.id}:`)))
      .map((g) => g.channel as string);
  const wanted = holding(groups);
  expect(wanted).toHaveLength(5);

  // Every request of the admin's page from the deactivation on, by route and query.
  const requests: string[] = [];
  // (the catch-ups by conversation and time, for a failure to say which conversation had one more)
  const names = new Map([...sealed.map((id, i) => [id, `Burst ${i}`] as const)]);
  const started = Date.now();
  const catchUpsSeen: string[] = [];
  admin.page.on("request", (r) => {
    const url = new URL(r.url());
    const sealedId = /^\/api\/sealed\/([^/]+)\/commits$/.exec(url.pathname)?.[1];
    if (sealedId && url.searchParams.get("messages") === "1")
      catchUpsSeen.push(`${Date.now() - started} ms: ${names.get(sealedId) ?? sealedId} since ${url.searchParams.get("since")}`);
    const path = url.pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ":id").replace(/\/[a-z0-9]{15}(?=\/|$)/g, "/:id");
    if (path.startsWith("/api/")) requests.push(`${r.method()} ${path}${url.search}`);
  });
  const count = (pattern: RegExp) => requests.filter((r) => pattern.test(r)).length;
  const status = await admin.page.evaluate(async (path) => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    return (await fetch(path, { method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" } })).status;
  }, `/api/admin/people/${carol.id}/deactivate`);
  expect(status).toBe(200);

  // Every removal committed: no group holds a device of hers.
  await expect
    .poll(async () => holding(await su.collection("mls_groups").getFullList({ fields: "channel,group_info" })), { timeout: 120_000 })
    .toEqual([]);
  console.log(`the admin's page sent ${requests.length} requests from the deactivation to the last removal; ${catchUpsSeen.join("; ")}`);
  // The lists reloaded after the burst, once.
  await expect.poll(() => count(/^GET \/api\/channels$/), { timeout: 30_000 }).toBe(1);
  // A sealed channel: one commit; a direct conversation: its list, then the removal.
  expect(count(/^POST \/api\/sealed\/:id\/commits$/)).toBe(3 + 2 * 2);
  // Each sealed channel caught up with once (the page had not applied Carol's join), its epoch's
  // messages read with the commits. The direct conversations, whose state is at the epoch the event
  // named, not at all: the list's commit goes first, and the removal follows it at once (the page knows
  // its state is the group's); once where the page was behind the group when the event came. The open
  // conversation's member list, reloaded after the removal, has its page check its group then: from the
  // commits alone, its list's change committed from the group as just read (no second catch-up).
  const catchUps = count(/^GET \/api\/sealed\/:id\/commits\?since=\d+&messages=1$/);
  const which = `catch-ups: ${catchUpsSeen.join("; ")} (direct: ${wanted.filter((id) => !names.has(id)).join(", ")}); requests: ${requests.join(", ")}`;
  expect(catchUps, which).toBeGreaterThanOrEqual(3);
  const perConversation = new Map<string, number>();
  for (const seen of catchUpsSeen) {
    const conversation = seen.replace(/^\d+ ms: /, "").replace(/ since \d+$/, "");
    perConversation.set(conversation, (perConversation.get(conversation) ?? 0) + 1);
  }
  expect(Math.max(...perConversation.values()), which).toBe(1);
  expect(count(/^GET \/api\/channels\/:id\/messages\?epoch=/)).toBe(0);
  // (the open group conversation's name is sealed again for its new epochs: its commits read, nothing more)
});
