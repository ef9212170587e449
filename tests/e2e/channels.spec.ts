import { expect, filesContaining, newUser, signUp, test } from "./fixtures";
import { copyInviteLink, createChannel, joinChannel, log, person, send, waitLive } from "./helpers";
import { staysAbsent } from "./stays-absent";

test.describe("channels and messaging", () => {
  test("two users create, join, talk live, clear, leave and delete", async ({ browser }) => {
    const alice = await person(browser, "alice");
    const bob = await person(browser, "bob");
    const password = `chan-${Date.now()}-secret`;
    const canary = `canary-message-${Date.now()}`;

    await expect(alice.page.getByText("No channels yet")).toBeVisible();
    const channelId = await createChannel(alice.page, "Project X", password);
    expect(channelId).toMatch(/^[0-9a-f-]{36}$/);

    // A malformed id is refused before any request; a wrong password by the server.
    let dialog = await joinChannel(bob.page, "not-a-uuid", password);
    await expect(dialog.getByRole("alert")).toContainText("Channel ID must be a UUID");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    dialog = await joinChannel(bob.page, channelId, "wrong-password");
    await expect(dialog.getByRole("alert")).toHaveText("Incorrect password");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    dialog = await joinChannel(bob.page, "00000000-0000-4000-8000-000000000000", password);
    await expect(dialog.getByRole("alert")).toHaveText("Channel not found");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    dialog = await joinChannel(bob.page, channelId, password);
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(bob.page.getByRole("heading", { name: "# Project X" })).toBeVisible();
    await expect(bob.page.getByText("End-to-end encrypted")).toBeVisible();
    await waitLive(bob.page);

    // Live messages both ways; blank text is not sent; Shift+Enter adds a line.
    await send(alice.page, `Hello Bob ${canary}`);
    await expect(log(bob.page).getByText(`Hello Bob ${canary}`)).toBeVisible();
    await expect(log(bob.page).locator("article.highlight")).toHaveCount(1);
    const box = bob.page.getByLabel("Message", { exact: true });
    await box.fill("   ");
    await box.press("Enter");
    await expect(bob.page.getByRole("button", { name: "Send" })).toBeDisabled();
    await box.fill("line one");
    await box.press("Shift+Enter");
    await box.pressSequentially("line two");
    await box.press("Enter");
    await expect(log(alice.page).getByText("line one\nline two")).toBeVisible();
    await expect(log(alice.page).getByRole("article")).toHaveCount(2);
    await expect(log(alice.page).getByRole("article").first()).toContainText("You");
    await expect(log(alice.page).getByRole("article").last()).toContainText(bob.user.username);

    // Only the creator sees Clear Messages; clearing updates the other screen live.
    await expect(bob.page.getByRole("button", { name: "Clear Messages" })).toHaveCount(0);
    await alice.page.getByRole("button", { name: "Clear Messages" }).click();
    await alice.page.getByRole("dialog", { name: "Clear All Messages" }).getByRole("button", { name: "Clear Messages" }).click();
    await expect(log(alice.page).getByRole("article")).toHaveCount(0);
    await expect(log(bob.page).getByRole("article")).toHaveCount(0);

    // Leave: the member's list updates.
    await bob.page.getByRole("button", { name: "Leave Project X" }).click();
    await bob.page.getByRole("dialog", { name: "Leave Channel" }).getByRole("button", { name: "Leave" }).click();
    await expect(bob.page.getByText("No channels yet")).toBeVisible();
    await expect(alice.page.getByRole("button", { name: "# Project X" })).toBeVisible();
    // (he left it himself: nothing tells him it went)
    await staysAbsent(bob.page.getByText("That channel is no longer available."));

    // Delete by the creator removes it from the other member's screen live.
    dialog = await joinChannel(bob.page, channelId, password);
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(bob.page.getByRole("heading", { name: "# Project X" })).toBeVisible();
    await expect(bob.page.getByRole("button", { name: "Delete Project X" })).toHaveCount(0);
    await alice.page.getByRole("button", { name: "Delete Project X" }).click();
    await alice.page.getByRole("dialog", { name: "Delete Channel" }).getByRole("button", { name: "Delete" }).click();
    await expect(alice.page.getByText("No channels yet")).toBeVisible();
    await expect(bob.page.getByText("No channels yet")).toBeVisible();
    await expect(bob.page.getByText("That channel is no longer available.")).toBeVisible();
    await expect(bob.page.getByText("Military grade encrypted chat for professionals")).toBeVisible();

    // Delete-all: own channels are deleted, joined ones are left.
    const keep = await createChannel(alice.page, "Alice Keeps", password);
    await createChannel(bob.page, "Bob Owns", password);
    dialog = await joinChannel(bob.page, keep, password);
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await bob.page.getByRole("button", { name: "Delete all channels" }).click();
    await bob.page.getByRole("dialog", { name: "Delete All Channels" }).getByRole("button", { name: "Delete All" }).click();
    await expect(bob.page.getByText("No channels yet")).toBeVisible();
    await expect(alice.page.getByRole("button", { name: "# Alice Keeps" })).toBeVisible();

    // Neither the message text nor the channel password is stored anywhere on the server.
    const dirs = [process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!];
    expect(filesContaining(dirs, canary)).toEqual([]);
    expect(filesContaining(dirs, password)).toEqual([]);

    await alice.context.close();
    await bob.context.close();
  });

  test("a signed-out visitor joins through an invite link and lands in the channel", async ({ browser }) => {
    const alice = await person(browser, "alice");
    const password = `invite-${Date.now()}`;
    const channelId = await createChannel(alice.page, "Invited Room", password);
    const link = await copyInviteLink(alice.page);
    expect(link).toMatch(new RegExp(`\\?invite=${channelId}&id=[a-z0-9]{15}#key=`));
    expect(link).not.toContain(password);

    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const carolPage = await context.newPage();
    const serverSaw: string[] = [];
    carolPage.on("request", (r) => serverSaw.push(r.url()));
    await carolPage.goto(link);
    await expect(carolPage.getByText("End-to-end encrypted messaging")).toBeVisible();
    await expect.poll(() => new URL(carolPage.url()).search + new URL(carolPage.url()).hash).toBe("");
    expect(await carolPage.evaluate(() => sessionStorage.getItem("pendingInvite"))).toContain(channelId);
    await signUp(carolPage, newUser("carol"));
    await expect(carolPage.getByRole("heading", { name: "# Invited Room" })).toBeVisible({ timeout: 20_000 });
    expect(await carolPage.evaluate(() => sessionStorage.getItem("pendingInvite"))).toBeNull();
    const key = new URLSearchParams(new URL(link).hash.slice(1)).get("key")!;
    expect(serverSaw.filter((u) => u.includes(key))).toEqual([]);

    await send(carolPage, "hi from the invite");
    await expect(log(alice.page).getByText("hi from the invite")).toBeVisible();
    await context.close();
    await alice.context.close();
  });

  test("the spec's query-form invite link works, and its key is written nowhere on the server", async ({ browser }) => {
    const alice = await person(browser, "alice");
    const channelId = await createChannel(alice.page, "Query Room", `query-${Date.now()}`);
    const link = await copyInviteLink(alice.page);
    const key = new URLSearchParams(new URL(link).hash.slice(1)).get("key")!;
    const queryForm = `/?invite=${channelId}&key=${encodeURIComponent(key)}`;

    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const carolPage = await context.newPage();
    await carolPage.goto(queryForm);
    await expect.poll(() => new URL(carolPage.url()).search).toBe("");
    await signUp(carolPage, newUser("carol"));
    await expect(carolPage.getByRole("heading", { name: "# Query Room" })).toBeVisible({ timeout: 20_000 });

    // the request line carried it, but neither the web server's log nor PocketBase's data holds it
    expect(filesContaining([process.env.E2E_LOG_DIR!, process.env.E2E_PB_DATA!], key)).toEqual([]);
    await context.close();
    await alice.context.close();
  });
});
