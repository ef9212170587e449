import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { expect, test } from "./fixtures";
import { openThread, reply } from "./thread-helpers";
import {
  createChannel,
  createSealed,
  joinAndOpen,
  keyPackagesSent,
  message,
  person,
  recordRequests,
  send,
  startConversation,
  waitInGroup,
  waitLive,
} from "./helpers";

// "Export my data" with the person's conversations as readable files, built in the browser
// (docs/decisions/0076-export-and-group-renames.md): one .zip with data.json and a text file per
// conversation (a classic channel, a sealed one and a direct message here), opened on the device.

test("Export my data: a .zip with data.json and each conversation's messages, opened in the browser", async ({ browser }) => {
  test.setTimeout(180_000);
  const canary = `exportcanary${Date.now()}`;
  const alice = await person(browser, "exporter");
  const bob = await person(browser, "exported");
  const sent = recordRequests(alice.context);

  // A classic channel they share (the picker offers Bob to her), with an edited message.
  const password = `classic-${Date.now()}`;
  const classicId = await createChannel(alice.page, "Export Classic", password);
  await joinAndOpen(bob.page, classicId, password, "Export Classic");
  await waitLive(alice.page);
  await send(alice.page, `classic first ${canary}`);
  await send(alice.page, `classic typo ${canary}`);
  const edited = message(alice.page, `classic typo ${canary}`);
  await edited.hover();
  await edited.getByRole("button", { name: "Edit" }).click();
  await alice.page.getByLabel("Edit message").fill(`classic fixed ${canary}`);
  await alice.page.getByLabel("Edit message").press("Enter");
  await expect(message(alice.page, `classic fixed ${canary}`)).toContainText("(edited)");

  // A sealed channel of hers.
  await createSealed(alice.page, "Export Sealed", `sealed-${Date.now()}`);
  await waitInGroup(alice.page);
  await send(alice.page, `sealed words ${canary}`);
  await expect(message(alice.page, `sealed words ${canary}`)).toBeVisible();

  // A direct message to Bob, once his device is in its group.
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await waitInGroup(alice.page);
  await send(alice.page, `direct words ${canary}`);
  await expect(message(alice.page, `direct words ${canary}`)).toBeVisible();
  // and a reply that stays in the message's thread (left out of the export before)
  const thread = await openThread(alice.page, `direct words ${canary}`);
  await reply(thread, `direct thread reply ${canary}`);
  await thread.getByRole("button", { name: "Close thread" }).click();

  await alice.page.getByRole("button", { name: "Menu" }).click();
  await alice.page.getByRole("menuitem", { name: "Account" }).click();
  const section = alice.page.getByRole("dialog", { name: "Account" }).getByRole("region", { name: "Your data" });
  const downloading = alice.page.waitForEvent("download");
  await section.getByRole("button", { name: "Export my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^chatcrypt-data-${alice.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  await expect(section.getByRole("status")).toHaveText(`Your data was saved as ${download.suggestedFilename()}.`);

  const files = unzipSync(readFileSync((await download.path())!));
  const names = Object.keys(files).sort();
  const conversation = (prefix: string) => {
    const name = names.find((n) => n.startsWith(`conversations/${prefix}-`));
    expect(name, `${prefix} in ${names.join(", ")}`).toBeTruthy();
    return strFromU8(files[name!]);
  };
  expect(names).toContain("data.json");
  expect(names).toContain("README.txt");
  const data = JSON.parse(strFromU8(files["data.json"])) as { account: { username: string }; channels: { name: string }[] };
  expect(data.account.username).toBe(alice.user.username);
  expect(data.channels.map((c) => c.name).sort()).toEqual(["Export Classic", "Export Sealed"]);

  const classic = conversation("Export Classic");
  expect(classic).toContain(`${alice.user.username}: classic first ${canary}`);
  // an edited message as its latest text
  expect(classic).toContain(`${alice.user.username}: classic fixed ${canary}`);
  expect(classic).not.toContain("classic typo");
  expect(conversation("Export Sealed")).toContain(`${alice.user.username}: sealed words ${canary}`);
  expect(conversation(bob.user.username)).toContain(`${alice.user.username}: direct words ${canary}`);
  expect(conversation(bob.user.username)).toContain(`${alice.user.username}, in a thread: direct thread reply ${canary}`);
  expect(strFromU8(files["README.txt"])).not.toContain("Left out");

  // Opened on her device: no request of hers carried any of the texts.
  expect(sent.filter((s) => s.includes(canary))).toEqual([]);
  await alice.context.close();
  await bob.context.close();
});
