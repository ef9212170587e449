import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { expect, filesContaining, filesUnder, test } from "./fixtures";
import { createChannel, joinAndOpen, keyPackagesSent, log, message, person, send, startConversation, waitLive } from "./helpers";
import { openDetail } from "./header-helpers";
import { axe } from "./axe";

// Display names and photos, encrypted in the browser (docs/decisions/0075-profile-cards.md): Alice sets
// hers in Menu > Account, Bob (who shares a channel with her) sees them on her message and in the
// members list, also after a reload; the server's data and logs hold neither the name nor the photo.

async function openAccount(page: Page) {
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Account" });
  // the saved card has arrived once the form can be saved
  await expect(dialog.getByRole("button", { name: "Save profile" })).toBeEnabled();
  return dialog;
}

/** A picture of random noise (PNG), drawn by the page: nothing like it exists anywhere before. */
async function noisePicture(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext("2d")!;
      const pixels = context.createImageData(w, h);
      crypto.getRandomValues(pixels.data.subarray(0, 65536));
      for (let i = 65536; i < pixels.data.length; i += 65536) crypto.getRandomValues(pixels.data.subarray(i, i + 65536));
      for (let i = 3; i < pixels.data.length; i += 4) pixels.data[i] = 255;
      context.putImageData(pixels, 0, 0);
      return canvas.toDataURL("image/png");
    },
    [width, height],
  );
  return Buffer.from(dataUrl.split(",")[1], "base64");
}

test("Alice's display name and photo reach Bob on her message and in the members list, never the server in plaintext", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const alice = await person(browser, "cardsa");
  const channelId = await createChannel(alice.page, "Card Room", "pw-card-room");
  const bob = await person(browser, "cardsb");
  await joinAndOpen(bob.page, channelId, "pw-card-room", "Card Room");
  await waitLive(alice.page);

  const account = await openAccount(alice.page);
  await account.getByLabel("Display name").fill("Alice Liddell");
  await account
    .getByLabel("Photo")
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await noisePicture(alice.page, 400, 300) });
  const preview = account.getByRole("img", { name: `Avatar of Alice Liddell (@${alice.user.username})` });
  await expect(preview).toBeVisible();
  const photo = (await preview.getAttribute("src"))!;
  expect(photo).toMatch(/^data:image\/(webp|jpeg);base64,/);
  expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([256, 256]);
  await account.getByRole("button", { name: "Save profile" }).click();
  await expect(account.getByRole("status").filter({ hasText: "Profile saved." })).toBeVisible({ timeout: 20_000 });
  await alice.page.keyboard.press("Escape");
  await expect(account).toBeHidden();

  await send(alice.page, "hello from alice liddell");
  const seen = async () => {
    const sent = message(bob.page, "hello from alice liddell");
    await expect(sent.locator(".sender")).toContainText("Alice Liddell", { timeout: 20_000 });
    await expect(sent.locator(".sender")).toContainText(`@${alice.user.username}`);
    const avatar = sent.getByRole("img", { name: `Avatar of Alice Liddell (@${alice.user.username})` });
    await expect(avatar).toBeVisible();
    expect(await avatar.getAttribute("src")).toBe(photo);
    await openDetail(bob.page, "Members");
    const members = bob.page.getByRole("complementary", { name: "Members" });
    const row = members.getByRole("listitem").filter({ hasText: `@${alice.user.username}` });
    await expect(row).toContainText("Alice Liddell");
    await expect(row.getByRole("img", { name: `Avatar of Alice Liddell (@${alice.user.username})` })).toBeVisible();
    // Bob has no card: he keeps the current look
    await expect(
      members
        .getByRole("listitem")
        .filter({ hasText: `@${bob.user.username}` })
        .getByRole("img"),
    ).toHaveCount(0);
    await members.getByRole("button", { name: "Close members" }).click();
  };
  await seen();
  await bob.page.reload();
  await expect(bob.page.getByRole("heading", { name: "# Card Room" })).toBeVisible({ timeout: 30_000 });
  await expect(log(bob.page).getByText("hello from alice liddell")).toBeVisible({ timeout: 20_000 });
  await seen();

  // Mention suggestions and the direct messages list name her too
  const box = bob.page.getByLabel("Message", { exact: true });
  await box.fill(`hi @${alice.user.username.slice(0, 8)}`);
  const suggestion = bob.page
    .getByRole("listbox", { name: "Mention a member" })
    .getByRole("option", { name: new RegExp(`@${alice.user.username}`) });
  await expect(suggestion).toContainText("Alice Liddell");
  await box.fill("");
  await keyPackagesSent(alice);
  await startConversation(bob.page, [alice.user.username]);
  const direct = bob.page.getByRole("region", { name: "Direct messages" });
  await expect(
    direct.getByRole("button", { name: `Avatar of Alice Liddell (@${alice.user.username}) Alice Liddell @${alice.user.username}` }),
  ).toBeVisible();

  // Carol joins later: Alice's page, which sees her join, seals Alice's key to her too
  const carol = await person(browser, "cardsc");
  await joinAndOpen(carol.page, channelId, "pw-card-room", "Card Room");
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await expect
    .poll(
      async () =>
        (await admin.collection("profile_card_keys").getList(1, 1, { filter: `owner = "${alice.id}" && reader = "${carol.id}"` }))
          .totalItems,
      {
        timeout: 20_000,
      },
    )
    .toBe(1);
  await send(alice.page, "welcome carol");
  await expect(message(carol.page, "welcome carol").locator(".sender")).toContainText("Alice Liddell", { timeout: 20_000 });

  // Canaries: neither the name nor the photo (as text or as bytes) is in the server's data or logs.
  const dirs = [process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!];
  expect(filesContaining(dirs, "Alice Liddell")).toEqual([]);
  const base64 = photo.split(",")[1];
  expect(filesContaining(dirs, base64.slice(100, 160))).toEqual([]);
  const bytes = Buffer.from(base64, "base64").subarray(64, 96);
  expect(dirs.flatMap((dir) => filesUnder(dir).filter((f) => f.bytes.includes(bytes)))).toEqual([]);
});

test("the Account dialog's profile: errors say what went wrong, the photo can be removed, and axe finds nothing serious", async ({
  browser,
}) => {
  const problems: string[] = [];
  test.setTimeout(150_000);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    const someone = await person(browser, "cardsx");
    await someone.page.setViewportSize(viewport);
    const account = await openAccount(someone.page);
    await account.getByLabel("Photo").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await expect(account.getByRole("alert")).toHaveText(
      "This file is not an image that can be read. Choose a JPEG, PNG, WebP or GIF picture.",
    );
    await account
      .getByLabel("Photo")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await noisePicture(someone.page, 80, 120) });
    await expect(account.getByRole("img", { name: `Avatar of ${someone.user.username} (@${someone.user.username})` })).toBeVisible();
    await expect(account.getByRole("alert")).toBeHidden();
    const results = await axe(someone.page)
      .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
      .analyze();
    for (const v of results.violations)
      if (v.impact === "serious" || v.impact === "critical")
        problems.push(`${viewport.width}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    await account.getByRole("button", { name: "Save profile" }).click();
    await expect(account.getByRole("status").filter({ hasText: "Profile saved." })).toBeVisible({ timeout: 20_000 });
    await account.getByRole("button", { name: "Remove photo" }).click();
    await expect(account.getByRole("img", { name: /^Avatar of/ })).toHaveCount(0);
    await account.getByRole("button", { name: "Save profile" }).click();
    await expect(account.getByRole("status").filter({ hasText: "Profile saved." })).toBeVisible({ timeout: 20_000 });
    // opened again: nothing saved, the fields are empty
    await someone.page.keyboard.press("Escape");
    const again = await openAccount(someone.page);
    await expect(again.getByLabel("Display name")).toHaveValue("");
    await expect(again.getByRole("button", { name: "Remove photo" })).toHaveCount(0);
    await someone.context.close();
  }
  expect(problems).toEqual([]);
});
