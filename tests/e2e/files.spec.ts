import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, filesContaining, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, waitLive } from "./helpers";
import { solidPng } from "./preview-site";
import { sendFile } from "./send-file";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function attach(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.locator('input[type="file"]').setInputFiles(file);
}

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

test("files are encrypted end to end: PDF, PNG inline and a 20 MB zip arrive byte-identical", async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `files-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Files", password);
  await joinAndOpen(bob.page, channelId, password, "Files");
  await waitLive(alice.page);

  const canary = `canary-file-content-${Date.now()}`;
  const pdf = {
    name: `canary-report-${Date.now()}.pdf`,
    mimeType: "application/pdf",
    buffer: Buffer.from(`%PDF-1.4\n% ${canary}\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n`),
  };
  const image = { name: "diagram.png", mimeType: "image/png", buffer: solidPng(64, 48, [0x3b, 0x3b, 0x3b]) };
  const zip = { name: "archive.zip", mimeType: "application/zip", buffer: randomBytes(20 * 1024 * 1024) };

  // The picture is picked while the PDF still uploads: it waits its turn, and both arrive.
  await sendFile(alice.page, pdf);
  await sendFile(alice.page, image);
  await expect(log(bob.page).getByRole("button", { name: `Download ${pdf.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(bob.page.locator('img[alt="diagram.png"]')).toBeVisible({ timeout: 30_000 });
  expect(await bob.page.locator('img[alt="diagram.png"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

  await sendFile(alice.page, zip);
  await expect(alice.page.locator(".upload-progress progress")).toBeVisible();
  await expect(alice.page.getByText("Uploading archive.zip...")).toBeVisible();
  // A message sent while it uploads goes once the upload is done, after the file (Enter did nothing).
  const box = alice.page.getByLabel("Message", { exact: true });
  await box.fill("typed while the zip uploads");
  await box.press("Enter");
  await expect(alice.page.getByText("Your message goes once the upload is done.")).toBeVisible();
  await expect(alice.page.locator(".upload-progress")).toBeHidden({ timeout: 120_000 });
  await expect(log(bob.page).getByRole("button", { name: "Download archive.zip" })).toBeVisible({ timeout: 60_000 });
  await expect(log(bob.page).getByRole("article").last()).toContainText("typed while the zip uploads", { timeout: 20_000 });
  await expect(box).toHaveValue("");

  // Name and size as the spec says: KB with one decimal.
  await expect(log(bob.page).getByRole("button", { name: `Download ${pdf.name}` })).toContainText(
    `${(pdf.buffer.length / 1024).toFixed(1)} KB`,
  );
  await expect(log(bob.page).getByRole("button", { name: "Download archive.zip" })).toContainText("20480.0 KB");

  for (const file of [pdf, image, zip]) {
    expect(sha256(await download(bob.page, file.name))).toBe(sha256(file.buffer));
  }

  // After a reload the history shows them again (decrypted from the server's ciphertext).
  await bob.page.reload();
  await bob.page.getByRole("button", { name: "# Files" }).click();
  await expect(bob.page.locator('img[alt="diagram.png"]')).toBeVisible({ timeout: 30_000 });

  // A thread on the picture shows the picture as its first message (it was blank).
  const picture = log(bob.page)
    .getByRole("article")
    .filter({ has: bob.page.locator('img[alt="diagram.png"]') });
  await picture.hover();
  await picture.getByRole("button", { name: "More" }).click();
  await bob.page.getByRole("menuitem", { name: "Reply in thread" }).click();
  const thread = bob.page.getByRole("complementary", { name: "Thread" });
  await expect(thread.locator('img[alt="diagram.png"]')).toBeVisible({ timeout: 30_000 });
  await expect(thread.getByRole("button", { name: "Download diagram.png" })).toBeVisible();
  await thread.getByRole("button", { name: "Close thread" }).click();

  // The server holds neither the content nor the name.
  const dirs = [process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!];
  expect(filesContaining(dirs, canary)).toEqual([]);
  expect(filesContaining(dirs, pdf.name)).toEqual([]);
  expect(filesContaining(dirs, "diagram.png")).toEqual([]);

  await alice.context.close();
  await bob.context.close();
});

test("a file type outside the picker's list is refused with a clear message", async ({ browser }) => {
  const alice = await person(browser, "alice");
  await createChannel(alice.page, "Types", "pw-types");
  await attach(alice.page, { name: "run.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await expect(alice.page.getByRole("alert")).toContainText("Only images, .pdf, .txt and .zip files can be sent.");
  await alice.context.close();
});

test("an audio message is recorded with the fake microphone and plays for the other member", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `audio-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Voice", password);
  await joinAndOpen(bob.page, channelId, password, "Voice");
  await waitLive(alice.page);

  await alice.page.getByRole("button", { name: "Record audio" }).click();
  await expect(alice.page.getByText(/Recording 0:0\d/)).toBeVisible();
  await alice.page.waitForTimeout(2_000);
  await alice.page.getByRole("button", { name: "Stop recording" }).click();

  // One tab stop per player: a Play button named after the message (not the native controls' five).
  const play = log(bob.page).getByRole("button", { name: /^Play audio message voice-message-.*\.webm$/ });
  await expect(play).toBeVisible({ timeout: 30_000 });
  const player = log(bob.page).locator("audio");
  await expect(player).toBeAttached();
  expect(await player.getAttribute("controls")).toBeNull();
  await play.click();
  await expect(log(bob.page).getByRole("button", { name: /^Pause audio message/ })).toBeVisible();
  await expect(log(bob.page).getByRole("button", { name: /^Play audio message/ })).toBeVisible({ timeout: 10_000 });
  const info = await player.evaluate(async (audio: HTMLAudioElement) => {
    const bytes = await (await fetch(audio.src)).arrayBuffer();
    const header = Array.from(new Uint8Array(bytes.slice(0, 4)));
    const decoded = await new AudioContext().decodeAudioData(bytes);
    return { header, duration: decoded.duration, size: bytes.byteLength };
  });
  expect(info.header).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML: a webm file
  expect(info.duration).toBeGreaterThan(0.5);
  // Its length is shown (not 0:00), and its short name.
  await expect(log(bob.page).locator(".audio-time")).toHaveText(/^0:0\d \/ 0:0[1-9]$/);
  await expect(log(bob.page).getByRole("button", { name: /^Download Voice message \d/ })).toBeVisible();
  await expect(
    log(bob.page)
      .getByText(/voice-message-.*\.webm/)
      .first(),
  ).toBeAttached();
  await alice.context.close();
  await bob.context.close();
});

test("several files picked at once are offered one after the other (only the first was, the others lost)", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `several-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Several Files", password);
  await joinAndOpen(bob.page, channelId, password, "Several Files");
  const file = (name: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(`the ${name}`) });
  await alice.page.locator('input[type="file"]').setInputFiles([file("one.txt"), file("two.txt"), file("three.txt")]);
  const dialog = alice.page.getByRole("dialog", { name: "Send a file" });
  await expect(dialog).toContainText("one.txt");
  await expect(dialog).toContainText("2 more files come after this one.");
  await dialog.getByLabel("Caption (optional)").fill("the first");
  await dialog.getByRole("button", { name: "Send file" }).click();
  await expect(dialog).toContainText("two.txt");
  await expect(dialog).toContainText("1 more file comes after this one.");
  await expect(dialog.getByLabel("Caption (optional)")).toHaveValue("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toContainText("three.txt");
  await dialog.getByRole("button", { name: "Send file" }).click();
  await expect(dialog).toBeHidden();
  for (const name of ["one.txt", "three.txt"])
    await expect(log(bob.page).getByRole("button", { name: `Download ${name}` })).toBeVisible({ timeout: 20_000 });
  await expect(log(bob.page).getByRole("button", { name: "Download two.txt" })).toHaveCount(0);
});

test("a picture that will not show says so, and still downloads", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `broken-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Broken", password);
  await joinAndOpen(bob.page, channelId, password, "Broken");
  const broken = { name: "broken.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") };
  await sendFile(alice.page, broken);
  for (const page of [alice.page, bob.page]) {
    await expect(log(page).getByText("This picture cannot be shown. Download it to open it.")).toBeVisible({ timeout: 30_000 });
    await expect(log(page).getByRole("button", { name: "View broken.png" })).toHaveCount(0);
  }
  expect(sha256(await download(bob.page, "broken.png"))).toBe(sha256(broken.buffer));
  await alice.context.close();
  await bob.context.close();
});
