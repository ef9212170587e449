import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { openConsole } from "./admin-helpers";
import { expectAccessible } from "./axe";
import { expect } from "./fixtures";
import { createChannel, joinAndOpen, log, person, waitLive } from "./helpers";
import { mailTest as test } from "./mail-stack";
import { solidPng } from "./preview-site";
import { confirmFile, sendFileDialog } from "./send-file";

// The files a team sends (ADR 71), on a stack of its own (its first account is the owner, and the
// workspace's setting changes nothing for other specs): by default a .docx cannot be picked; a picked
// file shows what will be sent, and Cancel or Esc sends nothing, focus back in the message box; with the
// admin setting on, a .docx and a .csv go with their captions and the other member opens both.

test.use({ mailStackFor: "files-policy" });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const pick = (page: Page, file: { name: string; mimeType: string; buffer: Buffer }) =>
  page.locator('input[type="file"]').setInputFiles(file);

async function download(page: Page, name: string): Promise<Buffer> {
  const [saved] = await Promise.all([
    page.waitForEvent("download"),
    log(page)
      .getByRole("button", { name: `Download ${name}` })
      .click(),
  ]);
  expect(saved.suggestedFilename()).toBe(name);
  return readFileSync((await saved.path())!);
}

test("office documents and .csv once an admin allows them, with captions; a cancelled file is never sent", async ({ browser, stack }) => {
  test.setTimeout(240_000);
  const alice = await person(browser, "alice", stack.web.url);
  const bob = await person(browser, "bob", stack.web.url);
  const password = `files-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Paperwork", password);
  await joinAndOpen(bob.page, channelId, password, "Paperwork");
  await waitLive(alice.page);
  const message = alice.page.getByLabel("Message", { exact: true });
  const docx = { name: "plan.docx", mimeType: DOCX, buffer: Buffer.from(`PK\u0003\u0004 plan ${Date.now()}`) };
  const csv = { name: "budget.csv", mimeType: "text/csv", buffer: Buffer.from("item,amount\nchairs,120\n") };

  // By default the picker offers the specification's list, and a .docx dropped in anyway is refused.
  await expect(alice.page.locator('input[type="file"]')).toHaveAttribute("accept", "image/*,.pdf,.txt,.zip");
  await pick(alice.page, docx);
  await expect(alice.page.getByRole("alert")).toContainText("Only images, .pdf, .txt and .zip files can be sent.");
  await expect(sendFileDialog(alice.page)).toHaveCount(0);

  // A picked file shows what will be sent; Cancel sends nothing and the message box has focus again.
  await pick(alice.page, { name: "cancelled-notes.txt", mimeType: "text/plain", buffer: Buffer.from("not to be sent") });
  const dialog = sendFileDialog(alice.page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("cancelled-notes.txt");
  await expect(dialog).toContainText("0.0 KB");
  await dialog.getByLabel("Caption (optional)").fill("this caption is never sent");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(message).toBeFocused();
  // A picture shows its preview; Esc closes it, sending nothing.
  await pick(alice.page, { name: "cancelled-photo.png", mimeType: "image/png", buffer: solidPng(40, 30, [0x20, 0x80, 0x40]) });
  const preview = dialog.getByRole("img", { name: "Preview of cancelled-photo.png" });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
  await expectAccessible(alice.page, "Send a file");
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await expect(preview).toBeVisible();
  await expectAccessible(alice.page, "Send a file (phone)");
  await alice.page.setViewportSize({ width: 1280, height: 720 });
  await alice.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(message).toBeFocused();

  // The owner allows office documents and .csv in the console.
  await openConsole(alice.page);
  const files = alice.page.getByRole("region", { name: "Files" });
  await files.getByRole("radio", { name: "Those, office documents and .csv" }).check();
  await expect(files.getByLabel("Largest file (MB)")).toHaveValue("50");
  await files.getByLabel("Largest file (MB)").fill("20");
  await files.getByRole("button", { name: "Save file settings" }).click();
  await expect(files.getByRole("status")).toHaveText("Saved: images, .pdf, .txt, .zip, office documents and .csv, up to 20 MB.");
  await expectAccessible(alice.page, "admin console with the Files section");
  await alice.page.goto("/");
  await alice.page.getByRole("button", { name: "# Paperwork" }).click();
  await waitLive(alice.page);
  await expect(alice.page.locator('input[type="file"]')).toHaveAttribute("accept", /\.docx.*\.csv/);

  // A .docx and a .csv, each with its caption; progress shows while one uploads.
  await pick(alice.page, docx);
  await confirmFile(alice.page, "The plan for Q3, please review");
  await pick(alice.page, csv);
  await confirmFile(alice.page, "Budget figures");
  for (const caption of ["The plan for Q3, please review", "Budget figures"])
    await expect(log(bob.page).getByText(caption)).toBeVisible({ timeout: 30_000 });
  for (const file of [docx, csv]) {
    await expect(log(bob.page).getByRole("button", { name: `Download ${file.name}` })).toBeVisible({ timeout: 30_000 });
    expect(sha256(await download(bob.page, file.name))).toBe(sha256(file.buffer));
  }
  // The caption is the file's own message: it sits with the file.
  const item = log(bob.page).getByRole("article").filter({ hasText: "Budget figures" });
  await expect(item.getByRole("button", { name: "Download budget.csv" })).toBeVisible();

  // What was cancelled never reached anyone: two files stored, no trace of the cancelled ones.
  await expect(log(bob.page).getByText(/cancelled-|never sent/)).toHaveCount(0);
  const su = await superuserClient(stack.pb.url, stack.pb.superuser);
  expect((await su.collection("file_attachments").getList(1, 10, { filter: `channel = "${channelId}"` })).totalItems).toBe(2);

  // The owner narrows the kinds back to the specification's list while Bob's "Send a file" holds a .docx
  // picked under the wider setting: "Send file" reads the setting again and refuses it as the server's
  // refusals are (Discard only, the caption back in his box), and nothing of it is posted.
  await pick(bob.page, { name: "minutes.docx", mimeType: DOCX, buffer: Buffer.from(`PK\u0003\u0004 minutes ${Date.now()}`) });
  await sendFileDialog(bob.page).getByLabel("Caption (optional)").fill("The minutes");
  await openConsole(alice.page);
  await files.getByRole("radio", { name: "Images, .pdf, .txt and .zip (default)" }).check();
  await files.getByRole("button", { name: "Save file settings" }).click();
  await expect(files.getByRole("status")).toContainText("Saved: images, .pdf, .txt and .zip, up to 20 MB.");
  await confirmFile(bob.page);
  const narrowed = bob.page.getByRole("alert").filter({ hasText: "(minutes.docx)" });
  await expect(narrowed).toContainText("Only images, .pdf, .txt and .zip files can be sent.");
  await expect(narrowed.getByRole("button", { name: "Retry upload" })).toHaveCount(0);
  await expect(bob.page.getByLabel("Message", { exact: true })).toHaveValue("The minutes");
  await narrowed.getByRole("button", { name: "Discard" }).click();
  await expect(narrowed).toHaveCount(0);
  await bob.page.getByLabel("Message", { exact: true }).fill("");

  // The owner lowers the largest file to 1 MB while Bob's page stays open. A 2 MB file he had picked
  // before, sent after, is refused by the server: no "Retry upload" (it cannot help), and the caption he
  // typed is back in his message box. One he picks now is refused as he picks it (the page reads the limit
  // again), and nothing of either is posted (their caption was left behind, "Receiving attachment..."
  // for everyone, when the server refused the upload).
  await pick(bob.page, { name: "big-figures.txt", mimeType: "text/plain", buffer: Buffer.alloc(2 * 1024 * 1024, 98) });
  await sendFileDialog(bob.page).getByLabel("Caption (optional)").fill("The big figures");
  await files.getByLabel("Largest file (MB)").fill("1");
  await files.getByRole("button", { name: "Save file settings" }).click();
  await expect(files.getByRole("status")).toContainText("up to 1 MB.");
  await confirmFile(bob.page);
  const refused = bob.page.getByRole("alert").filter({ hasText: "(big-figures.txt)" });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(refused.getByRole("button", { name: "Retry upload" })).toHaveCount(0);
  await expect(bob.page.getByLabel("Message", { exact: true })).toHaveValue("The big figures");
  await refused.getByRole("button", { name: "Discard" }).click();
  await expect(refused).toHaveCount(0);
  await bob.page.getByLabel("Message", { exact: true }).fill("");
  await pick(bob.page, { name: "big-report.txt", mimeType: "text/plain", buffer: Buffer.alloc(2 * 1024 * 1024, 97) });
  await expect(bob.page.getByRole("alert")).toContainText("The file is larger than the limit of 1 MB.");
  await expect(sendFileDialog(bob.page)).toHaveCount(0);
  await expect(log(bob.page).getByText(/The big figures|The minutes/)).toHaveCount(0);
  expect((await su.collection("file_attachments").getList(1, 10, { filter: `channel = "${channelId}"` })).totalItems).toBe(2);
  await alice.context.close();
  await bob.context.close();
});
