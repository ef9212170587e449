import { expect, newUser, NO_ANSWER, signUp, test } from "./fixtures";
import { createChannel, log, send } from "./helpers";

// The search index's code is fetched when the page is idle a moment after the first conversation is
// shown: when that fetch fails (the network away), the search box said "No messages found." for every
// query until a reload. It now says the search could not be loaded, and loads it again when used.

test("the search index that could not be fetched says so, and is fetched again when the box is used", async ({
  browser,
  consoleErrors,
}) => {
  // (the index's code is cut off on purpose)
  consoleErrors.allow(NO_ANSWER);
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["clipboard-read", "clipboard-write"] });
  let cut = true;
  let asked = 0;
  await context.route("**/assets/engine-*.js", (route) => {
    asked += 1;
    return cut ? route.abort("internetdisconnected") : route.fallback();
  });
  const alice = { context, page: await context.newPage() };
  await signUp(alice.page, newUser("alice"));
  await createChannel(alice.page, "Field Log", `search-offline-${Date.now()}`);
  await send(alice.page, "pelican sighted at the pier");
  await expect(log(alice.page).getByText("pelican sighted at the pier")).toBeVisible();

  const field = alice.page.getByRole("combobox", { name: "Search messages" });
  await alice.page.keyboard.press("Control+k");
  await field.fill("pelican");
  const popup = alice.page.locator(".search-popup");
  await expect(popup.getByRole("status")).toHaveText("This part of ChatCrypt could not be loaded. Check your connection and try again.", {
    timeout: 20_000,
  });
  expect(asked).toBeGreaterThan(0);
  await expect(popup.getByText("No messages found.")).toHaveCount(0);

  // The network is back: the next keystroke fetches the index's code again, and the message is found.
  cut = false;
  await field.press("End");
  await field.pressSequentially("s");
  await field.press("Backspace");
  const found = alice.page.getByRole("listbox", { name: "Search results" }).getByRole("option");
  await expect(found).toHaveCount(1, { timeout: 20_000 });
  await expect(found).toContainText("pelican sighted at the pier");
  await alice.context.close();
});
