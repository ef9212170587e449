import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, person, send, waitLive } from "./helpers";

// Each conversation keeps its own unsent text (ADR 96). What was typed in #Alpha used to stay in the
// box when #Beta opened, and Enter sent it there, to other people.

test("a half-written message stays with its conversation: another opens with an empty box, and it is there on coming back", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const alphaPassword = `alpha-${Date.now()}`;
  const betaPassword = `beta-${Date.now()}`;
  const alpha = await createChannel(alice.page, "Alpha Room", alphaPassword);
  const beta = await createChannel(alice.page, "Beta Room", betaPassword);
  await joinAndOpen(bob.page, alpha, alphaPassword, "Alpha Room");
  await joinAndOpen(bob.page, beta, betaPassword, "Beta Room");

  const box = alice.page.getByLabel("Message", { exact: true });
  const open = async (name: string) => {
    await alice.page.getByRole("button", { name: `# ${name}`, exact: true }).click();
    await expect(alice.page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
    await waitLive(alice.page);
  };
  await open("Alpha Room");
  await box.fill("confidential note meant for Alpha only");
  await open("Beta Room");
  await expect(box).toHaveValue("");
  await box.press("Enter");
  await send(alice.page, "hello Beta");
  await expect(log(bob.page).getByText("hello Beta")).toBeVisible({ timeout: 20_000 });

  await open("Alpha Room");
  await expect(box).toHaveValue("confidential note meant for Alpha only");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await open("Beta Room");
  await expect(box).toHaveValue("");
  await open("Alpha Room");
  await expect(log(alice.page).getByText("confidential note meant for Alpha only")).toBeVisible();
  await expect(box).toHaveValue("");

  // Bob, in Beta Room, never got the note; in Alpha Room it arrived once.
  await expect(log(bob.page).getByText("confidential note meant for Alpha only")).toHaveCount(0);
  await bob.page.getByRole("button", { name: "# Alpha Room", exact: true }).click();
  await expect(log(bob.page).getByText("confidential note meant for Alpha only")).toHaveCount(1, { timeout: 20_000 });
});
