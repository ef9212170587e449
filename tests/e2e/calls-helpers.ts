import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

// What a page's call receives (its diagnostics, features/calls/stats.client.ts), for the call specs.

type Inbound = { participant: string; kind: "audio" | "video"; bytesReceived: number; framesDecoded: number };

/** What the page's call receives from `fromUser` (its diagnostics, features/calls/stats.client.ts): bytes and decoded frames. */
export async function received(page: Page, fromUser: string) {
  const stats = (await page.evaluate(
    () => (globalThis as unknown as { chatcryptCall?: { stats(): Promise<unknown> } }).chatcryptCall?.stats() ?? [],
  )) as Inbound[];
  const of = (kind: "audio" | "video") => stats.filter((s) => s.participant.startsWith(`${fromUser}:`) && s.kind === kind);
  return {
    audioBytes: of("audio").reduce((n, s) => n + s.bytesReceived, 0),
    videoBytes: of("video").reduce((n, s) => n + s.bytesReceived, 0),
    videoFrames: of("video").reduce((n, s) => n + s.framesDecoded, 0),
  };
}

/** Waits until the page receives sound and decodes pictures from `fromUser`, then until both grow further. */
export async function receivesFrom(page: Page, fromUser: string) {
  await expect
    .poll(async () => received(page, fromUser), { timeout: 20_000 })
    .toMatchObject({
      audioBytes: expect.any(Number),
      videoFrames: expect.any(Number),
    });
  let first = { audioBytes: 0, videoBytes: 0, videoFrames: 0 };
  await expect
    .poll(
      async () => {
        first = await received(page, fromUser);
        return first.audioBytes > 0 && first.videoFrames > 0;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect
    .poll(
      async () => {
        const now = await received(page, fromUser);
        return now.audioBytes > first.audioBytes && now.videoFrames > first.videoFrames;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** "Join call" in the call window's check of devices (its camera and microphone level shown first). */
export async function joinFromCheck(page: Page) {
  const panel = page.getByRole("region", { name: "Call", exact: true });
  await panel.getByRole("group", { name: "Check your camera and microphone" }).getByRole("button", { name: "Join call" }).click();
}

/** Starts the open conversation's call: "Start call", then "Join call" after the check of devices. */
export async function startCall(page: Page) {
  await page.getByRole("button", { name: "Start call" }).click();
  await joinFromCheck(page);
}

/** Joins the open conversation's call from its bar: "Join call", then "Join call" after the check of devices. */
export async function joinCall(page: Page) {
  await page.getByRole("region", { name: "Call in progress" }).getByRole("button", { name: "Join call" }).click();
  await joinFromCheck(page);
}
