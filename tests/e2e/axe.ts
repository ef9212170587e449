// axe-core over what a page shows now: no serious or critical violation.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * axe-core as the tests run it: in the page itself (legacy mode). Its default run is made for pages with
 * frames from other origins: for every audit it opens a blank page and loads axe three times, 650 KB of
 * script each; the product's pages have no frame, so that run finds nothing more, at several times the
 * processor time.
 */
export const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode();

export async function expectAccessible(page: Page, where: string) {
  const results = await axe(page)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    where,
  ).toEqual([]);
}
