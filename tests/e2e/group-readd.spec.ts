import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  createChannel,
  joinAndOpen,
  keyPackagesSent,
  log,
  message,
  newDevice,
  openConversation,
  person,
  type Person,
  send,
  startConversation,
  waitLive,
} from "./helpers";
import { openDetail } from "./header-helpers";

/**
 * Alice, Bob and Carol in the channel Team and in the group Crew, which Carol has read; `before` runs
 * before the group is made (another device of Carol's, whose packages it then takes in).
 */
async function crew(browser: Browser, before?: (carol: Person) => Promise<void>) {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const carol = await person(browser, "carol");
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  await joinAndOpen(carol.page, channelId, password, "Team");
  await keyPackagesSent(bob);
  await keyPackagesSent(carol);
  await before?.(carol);
  await startConversation(alice.page, [bob.user.username, carol.user.username], "Crew");
  await waitLive(alice.page);
  await send(alice.page, "one before anyone leaves");
  await openConversation(bob.page, "Crew");
  await openConversation(carol.page, "Crew");
  await expect(message(carol.page, "one before anyone leaves")).toBeVisible({ timeout: 30_000 });
  return { alice, bob, carol };
}

/** Alice adds Carol to Crew again (Carol then has her request). */
async function addAgain(alice: Person, carol: Person) {
  await openDetail(alice.page, "Invite people");
  const dialog = alice.page.getByRole("dialog", { name: "Add people" });
  await dialog.getByRole("checkbox", { name: carol.user.username }).check();
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

// Carol leaves a group conversation and Alice adds her again (a request, ADR 0052). Right after Carol's
// Accept, her device joins the group by its own commit, which can land after Alice's page lists her as a
// member again: what Alice writes at that moment is sealed once Carol's device is in the group, so
// Carol reads it (before, it was sealed for the epoch before her join and she never could).

test("a group: Carol leaves, is added again and accepts; what Alice writes right then reaches her", async ({ browser }) => {
  test.setTimeout(240_000);
  const { alice, bob, carol } = await crew(browser);

  // Her page does not keep the name of the group she left for its next epoch, nor catch up with the
  // group after her own leaving commit (each was refused, with lines in her console).
  const refused: string[] = [];
  carol.page.on("response", (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  await carol.page.getByRole("button", { name: "Leave Crew" }).click();
  await carol.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
  for (const p of [alice, bob])
    await expect(log(p.page).getByText(`${carol.user.username} left the conversation`)).toBeVisible({ timeout: 30_000 });
  // (the others' pages seal the group's name again within 2 s of the new epoch; hers would ask too)
  await carol.page.waitForTimeout(4_000);
  expect(refused).toEqual([]);
  await send(alice.page, "two while carol is away");
  await expect(message(bob.page, "two while carol is away")).toBeVisible({ timeout: 30_000 });

  await addAgain(alice, carol);

  // Carol's join (her device's external commit) is held on its way until Alice's page lists her again,
  // and 2.5 s more: the moment the message is written falls between the two, every run.
  let release = () => {};
  const listed = new Promise<void>((resolve) => (release = () => setTimeout(resolve, 2_500)));
  await carol.page.route("**/api/sealed/*/external-join", async (route) => {
    await listed;
    await route.fallback();
  });
  const request = carol.page.getByRole("group", { name: `${alice.user.username} wants to message you` });
  await expect(request).toBeVisible({ timeout: 30_000 });
  await request.getByRole("button", { name: "Accept" }).click();
  await openDetail(alice.page, "Participants");
  await expect(alice.page.getByRole("complementary", { name: "Participants" }).getByText(`@${carol.user.username}`)).toBeVisible({
    timeout: 30_000,
  });
  await alice.page.getByRole("button", { name: "Close participants" }).click();
  release();
  await send(alice.page, "three after carol accepted");
  await openConversation(carol.page, "Crew");
  await expect(message(carol.page, "three after carol accepted")).toBeVisible({ timeout: 30_000 });
  await expect(message(bob.page, "three after carol accepted")).toBeVisible({ timeout: 30_000 });
  // (what was written while she was away stays hers to never read)
  await expect(message(carol.page, "two while carol is away")).toHaveCount(0);

  await send(carol.page, "four carol answers");
  for (const p of [alice, bob]) await expect(message(p.page, "four carol answers")).toBeVisible({ timeout: 30_000 });
  // After a reload too.
  await carol.page.reload();
  await openConversation(carol.page, "Crew");
  await expect(message(carol.page, "three after carol accepted")).toBeVisible({ timeout: 30_000 });
  await expect(message(carol.page, "four carol answers")).toBeVisible({ timeout: 30_000 });

  // Everyone Alice shares a channel with is in the group again: adding people says so (it said "Nobody
  // shares a channel with you yet.").
  await openDetail(alice.page, "Invite people");
  const add = alice.page.getByRole("dialog", { name: "Add people" });
  await expect(
    add.getByText("Everyone who shares a channel with you is already here. Look someone else up by their exact username."),
  ).toBeVisible();
  await expect(add.getByText("Nobody shares a channel with you yet.")).toHaveCount(0);
  await alice.page.keyboard.press("Escape");
  await expect(add).toBeHidden();
});

// Her other device drops the group with her leave, and takes it up again with her Accept on the laptop
// (each of her devices joins by its own commit): it reads what is written after, never what was written
// while she was away, and what it writes reaches everyone.
test("a group: Carol with two devices leaves on her laptop and is added again; both her devices read what follows, and write", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  let second: Page | undefined;
  const { alice, bob, carol } = await crew(browser, async (c) => void (second = await newDevice(browser, c.user)));
  if (!second) throw new Error("her second device did not sign in");
  await openConversation(second, "Crew");
  await expect(message(second, "one before anyone leaves")).toBeVisible({ timeout: 30_000 });

  await carol.page.getByRole("button", { name: "Leave Crew" }).click();
  await carol.page.getByRole("dialog", { name: "Leave Conversation" }).getByRole("button", { name: "Leave" }).click();
  await expect(log(alice.page).getByText(`${carol.user.username} left the conversation`)).toBeVisible({ timeout: 30_000 });
  await send(alice.page, "two while carol is away");
  await expect(message(second, "two while carol is away")).toHaveCount(0);

  await addAgain(alice, carol);
  const request = carol.page.getByRole("group", { name: `${alice.user.username} wants to message you` });
  await expect(request).toBeVisible({ timeout: 30_000 });
  await request.getByRole("button", { name: "Accept" }).click();
  await openConversation(carol.page, "Crew");
  await send(alice.page, "three after carol accepted");
  await expect(message(carol.page, "three after carol accepted")).toBeVisible({ timeout: 30_000 });
  await openConversation(second, "Crew");
  await expect(message(second, "three after carol accepted")).toBeVisible({ timeout: 45_000 });
  await send(second, "four from her second device");
  for (const p of [alice.page, bob.page, carol.page])
    await expect(message(p, "four from her second device")).toBeVisible({ timeout: 30_000 });
  await second.reload();
  await openConversation(second, "Crew");
  await expect(message(second, "three after carol accepted")).toBeVisible({ timeout: 30_000 });
  await expect(message(second, "two while carol is away")).toHaveCount(0);
});
