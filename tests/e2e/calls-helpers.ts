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
