import { superuserClient } from "../integration/pocketbase";
import { expect, openAuth, signIn, test } from "./fixtures";
import { createChannel, log, person, send } from "./helpers";
import { findPerson, openConsole } from "./admin-helpers";
import { newPassword } from "./reset-helpers";
import { expectAccessible } from "./axe";

// Reset codes (ADR 62) on a server without email, as `npm start` runs it by default: "Forgot your
// password?" says the way back before asking anything; an administrator issues a code in the console;
// the person, on a new phone, enters it and resets with their recovery key, and reads their channel.

const NO_RESET_EMAIL =
  "Email is not set up on this server, so no reset link can be sent. Ask an administrator of your team for a reset code and enter it here. Your recovery key, or a passkey that unlocks your keys, keeps your channels and messages readable.";

test("an administrator's reset code with the recovery key: a new password on a new phone, and the channel still reads", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await person(browser, "rcadmin");
  const bob = await person(browser, "rcbob");
  const su = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  await su.collection("profiles").update(admin.id, { role: "admin" });

  // Bob writes in his channel and makes a recovery key (Account > Recovery key).
  await createChannel(bob.page, "Codes", `codes-${Date.now()}`);
  await send(bob.page, "written before the reset");
  await bob.page.getByRole("button", { name: "Menu", exact: true }).click();
  await bob.page.getByRole("menuitem", { name: "Account" }).click();
  const account = bob.page.getByRole("dialog", { name: "Account" });
  await account.getByRole("button", { name: "Create a recovery key" }).click();
  const keyDialog = bob.page.getByRole("dialog", { name: "Save your recovery key" });
  const items = keyDialog.getByRole("list", { name: "Recovery key" }).getByRole("listitem");
  await expect(items).toHaveCount(24, { timeout: 20_000 });
  const recoveryKey = (await items.allInnerTexts()).join(" ");
  await keyDialog.getByLabel("I have saved it").check();
  await keyDialog.getByRole("button", { name: "Done" }).click();
  await expect(keyDialog).toBeHidden({ timeout: 20_000 });

  // On a phone that never had his data, "Forgot your password?" says the way back first.
  const phoneContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  await openAuth(phone);
  await phone.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(phone.getByText(NO_RESET_EMAIL)).toBeVisible();
  await expect(phone.getByRole("button", { name: "Send reset link" })).toHaveCount(0);
  await expectAccessible(phone, "Forgot your password? without email");

  // The administrator issues a code for him in the console (after a confirmation).
  await admin.page.reload();
  await openConsole(admin.page);
  const entry = await findPerson(admin.page, bob.user.username);
  await entry.getByRole("button", { name: `Issue a reset code for ${bob.user.username}` }).click();
  const confirm = admin.page.getByRole("dialog", { name: `Issue a reset code for ${bob.user.username}?` });
  await confirm.getByRole("button", { name: "Issue a reset code" }).click();
  const status = admin.page.getByRole("status").filter({ hasText: `Reset code for ${bob.user.username}:` });
  await expect(status).toBeVisible();
  await expectAccessible(admin.page, "the console with a reset code");
  const code = /([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec((await status.textContent()) ?? "")?.[1] ?? "";
  expect(code).not.toBe("");

  // A wrong code is refused with a clear message; the right one opens the reset page.
  await phone.getByLabel("Email").fill(bob.user.email);
  await phone.getByLabel("Reset code").fill("0000-0000-0000");
  await phone.getByRole("button", { name: "Continue" }).click();
  await expect(phone.getByRole("alert")).toHaveText("This reset code is not valid. Check it, or ask an administrator for a new one.");
  await phone.getByLabel("Reset code").fill(code.toLowerCase());
  await phone.getByRole("button", { name: "Continue" }).press("Enter");
  await expect(phone.getByRole("heading", { name: "Reset your password" })).toBeVisible({ timeout: 20_000 });
  await expect(phone).not.toHaveURL(/token/);
  const password = `coded-${Date.now()}`;
  await phone.getByLabel("Recovery key").fill(recoveryKey);
  await newPassword(phone, password);
  await phone.getByRole("button", { name: "Reset password" }).click();
  await expect(phone.getByRole("status")).toHaveText(
    "Your password has been reset and every device was signed out. Sign in with your new password.",
    { timeout: 20_000 },
  );

  // The new password opens his keys on the phone, and the channel reads without its password.
  await signIn(phone, { email: bob.user.email, password });
  await expect(phone.getByText(`@${bob.user.username}`)).toBeAttached({ timeout: 20_000 });
  await phone.getByRole("button", { name: "Show channels" }).click();
  await phone.getByRole("button", { name: "# Codes" }).click();
  await expect(log(phone).getByText("written before the reset")).toBeVisible({ timeout: 20_000 });
  await phoneContext.close();
});
