import { expect, test } from "./fixtures";
import { person, send } from "./helpers";
import { bobOnAPhoneJoins } from "./phone-helpers";

// On a phone the channels are behind the ≡ toggle: what waits there (unread messages, mentions) shows on
// the toggle itself, in its name and as a badge, and goes once read.

test("on a phone, unread messages and mentions elsewhere show on the channels' toggle", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const name = `Toggle ${Date.now() % 100000}`;
  const bob = await bobOnAPhoneJoins(browser, alice, name);
  // Bob goes to the home screen: nothing waits yet
  await bob.page.goto("/");
  const toggle = bob.page.getByRole("button", { name: /^Show channels/ });
  await expect(toggle).toHaveAccessibleName("Show channels", { timeout: 20_000 });

  await send(alice.page, "a plain word");
  await expect(toggle).toHaveAccessibleName("Show channels: 1 unread", { timeout: 20_000 });
  await expect(toggle).toHaveText("1");
  await send(alice.page, `@${bob.user.username} a word for you`);
  await expect(toggle).toHaveAccessibleName("Show channels: 1 mention, 2 unread");
  await expect(toggle).toHaveText("@1");

  // read: the toggle is plain again
  await toggle.click();
  await bob.page.getByRole("button", { name: `# ${name}`, exact: true }).click();
  await expect(bob.page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await expect(toggle).toHaveAccessibleName("Show channels");
  await expect(toggle).toHaveText("");
  await alice.context.close();
  await bob.context.close();
});
