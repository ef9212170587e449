// A file as a person sends it (docs/decisions/0071-files-a-team-sends.md): picked, then shown in "Send a
// file" with an optional caption, and sent with "Send file".
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export type PickedFile = { name: string; mimeType: string; buffer: Buffer };

/** The dialog a picked (dropped, pasted) file opens. */
export const sendFileDialog = (page: Page) => page.getByRole("dialog", { name: "Send a file" });

/** Confirms the picked file in its dialog, with a caption when given. */
export async function confirmFile(page: Page, caption?: string) {
  const dialog = sendFileDialog(page);
  if (caption) await dialog.getByLabel("Caption (optional)").fill(caption);
  await dialog.getByRole("button", { name: "Send file" }).click();
  await expect(dialog).toBeHidden();
}

/** Picks a file with the composer's file picker and sends it. */
export async function sendFile(page: Page, file: PickedFile, caption?: string) {
  await page.locator('input[type="file"]').setInputFiles(file);
  await confirmFile(page, caption);
}
