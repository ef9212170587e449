import type { Browser, BrowserContext } from "@playwright/test";
import { createChannel, joinAndOpen, keyPackagesSent, person, startConversation, waitLive, type Person } from "./helpers";

/**
 * Alice and Bob, each signed up on a device of their own, in a channel together and then in a direct
 * conversation Alice started (Bob's key packages sent first, so that his device is in it from the start).
 */
export async function aliceAndBobInDm(browser: Browser): Promise<{ alice: Person; bob: Person }> {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `team-${Date.now()}`;
  await joinAndOpen(bob.page, await createChannel(alice.page, "Team", password), password, "Team");
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await waitLive(alice.page);
  return { alice, bob };
}

/**
 * A stand-in: this browser's pages keep nothing of their messages for the others (ADR 0099), as if the
 * server had stored nothing. For tests that follow what a reader's own devices keep in their archive.
 */
export async function keepNothingForOthers(context: BrowserContext) {
  await context.route("**/api/archive/*", (route) => {
    const request = route.request();
    if (request.method() !== "POST" || !(request.postDataJSON() as { for?: string } | null)?.for) return route.fallback();
    return route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ stored: 0 }) });
  });
}
