import type { Locator } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * That something does not show for a while: looked for ten times over `ms`, each look at once (an
 * `expect(...).toHaveCount(0)` waits for it to go, and so passes over something shown for a few seconds).
 */
export async function staysAbsent(locator: Locator, ms = 2_000) {
  const step = ms / 10;
  for (let i = 0; i < 10; i++) {
    expect(await locator.count(), `${locator} shown after ${i * step} ms`).toBe(0);
    await locator.page().waitForTimeout(step);
  }
}
