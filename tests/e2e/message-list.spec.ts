import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";
import { solidPng } from "./preview-site";
import { sendFile } from "./send-file";

test("a picture arriving last is fully in view, opens in a viewer, and each channel keeps its reading position", async ({ browser }) => {
  test.setTimeout(120_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `list-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Pictures", password);
  await joinAndOpen(bob.page, channelId, password, "Pictures");
  await waitLive(alice.page);
  for (let i = 0; i < 30; i++) await send(alice.page, `line ${i} of a long conversation`);
  await expect(log(bob.page).getByText("line 29 of a long conversation")).toBeVisible();

  // A tall picture arrives: once it has loaded (and grown the list), its bottom is in view.
  const picture = { name: "tall.png", mimeType: "image/png", buffer: solidPng(200, 600, [0x22, 0x66, 0xaa]) };
  await sendFile(alice.page, picture);
  const image = log(bob.page).locator('img[alt="tall.png"]');
  await expect(image).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight)).toBe(600);
  await expect
    .poll(async () => {
      const list = (await log(bob.page).boundingBox())!;
      const box = (await image.boundingBox())!;
      return box.height > 0 && box.y + box.height <= list.y + list.height + 1;
    })
    .toBe(true);

  // The viewer: a dialog named by the file, Esc closes it and focus goes back to the picture.
  const opener = log(bob.page).getByRole("button", { name: "View tall.png" });
  await opener.click();
  const viewer = bob.page.getByRole("dialog", { name: "tall.png" });
  await expect(viewer.getByRole("img", { name: "tall.png" })).toBeVisible();
  await bob.page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  await expect(opener).toBeFocused();

  // Bob reads further up, goes to another channel and back: the same message is at the same height.
  const list = log(bob.page);
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 3));
  await bob.page.waitForTimeout(200);
  const anchor = async () =>
    list.evaluate((el) => {
      const top = el.getBoundingClientRect().top;
      const first = [...el.querySelectorAll<HTMLElement>('[id^="message-"]')].find((m) => m.getBoundingClientRect().bottom > top)!;
      return { id: first.id, offset: Math.round(top - first.getBoundingClientRect().top) };
    });
  const before = await anchor();
  await createChannel(bob.page, "Elsewhere", `else-${Date.now()}`);
  await bob.page.getByRole("button", { name: "# Pictures" }).click();
  await expect(bob.page.getByRole("heading", { name: "# Pictures" })).toBeVisible();
  await expect(list.getByText("line 29 of a long conversation")).toBeAttached();
  // the same message at the same height, to the pixel: its place is put back from sub-pixel offsets
  await expect
    .poll(async () => {
      const now = await anchor();
      return now.id === before.id && Math.abs(now.offset - before.offset) <= 1;
    })
    .toBe(true);
  await alice.context.close();
  await bob.context.close();
});
