import { expect, filesContaining, newUser, notNowRecoveryKey, openAuth, signIn, signUp, test, signOut } from "./fixtures";

test.describe("auth screen", () => {
  test("shows every text of the spec and required, labelled fields", async ({ page }) => {
    await openAuth(page);
    await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();
    await expect(page.getByRole("button", { name: "Don't have an account? Sign up" })).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveCount(0);
    const email = page.getByLabel("Email");
    await expect(email).toHaveAttribute("type", "email");
    await expect(email).toHaveAttribute("required", "");
    await expect(page.getByLabel("Password")).toHaveAttribute("required", "");

    await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
    await expect(page.getByRole("button", { name: "Already have an account? Sign in" })).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveAttribute("required", "");
    await expect(page.getByRole("button", { name: "Sign Up", exact: true })).toBeVisible();

    // Client-side validation: a short password is refused before anything is sent.
    await page.getByLabel("Username").fill("someone");
    await page.getByLabel("Email").fill("someone@example.test");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("Password must be at least 8 characters.");
  });

  test("sign up shows Processing..., lands in the workspace, and signs out from the account footer", async ({ page }) => {
    const user = newUser("alice");
    await openAuth(page);
    await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    // Hold the sign-up answer for a moment so the busy state can be seen.
    await page.route("**/api/auth/signup", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    await expect(page.getByText(`@${user.username}`)).toBeVisible({ timeout: 20_000 });
    await notNowRecoveryKey(page);
    await expect(page.getByRole("heading", { name: "Channels" })).toBeVisible();
    await expect(page.getByText("Military grade encrypted chat for professionals")).toBeVisible();
    await expect(page.getByText("Because privacy matters.")).toBeVisible();
    const stored = await page.evaluate(() => localStorage.getItem("chatcrypt_keys"));
    expect(stored).toContain("ecdhPrivateKey");

    // (its own sign-out does not ask for the sessions list: the live stream's "signed-out" is not checked
    // again, which was a 401 in the console; background reads in flight as it signs out may still be refused)
    const asked: string[] = [];
    page.on("request", (r) => new URL(r.url()).pathname.startsWith("/api/auth/sessions") && asked.push(`${r.method()} ${r.url()}`));
    await signOut(page);
    await expect(page.getByText("End-to-end encrypted messaging")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("chatcrypt_keys"))).toBeNull();
    await page.waitForTimeout(1_500); // (the stream's check came at once; a bounded wait for it)
    expect(asked).toEqual([]);
    // Reloading stays signed out: the session cookie is gone too.
    await page.reload();
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  });

  test("sign in on a new device unwraps the keys from the profile", async ({ page, browser }) => {
    const user = newUser("bob");
    await signUp(page, user);
    const original = JSON.parse((await page.evaluate(() => localStorage.getItem("chatcrypt_keys"))) ?? "{}");

    const device = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const other = await device.newPage();
    await signIn(other, user);
    await expect(other.getByText(`@${user.username}`)).toBeVisible({ timeout: 20_000 });
    const restored = JSON.parse((await other.evaluate(() => localStorage.getItem("chatcrypt_keys"))) ?? "{}");
    expect(restored.userId).toBe(original.userId);
    expect(restored.ecdhPublicKey).toBe(original.ecdhPublicKey);
    expect(restored.rsaPublicKey).toBe(original.rsaPublicKey);
    expect(restored.ecdhPrivateKey.d).toBe(original.ecdhPrivateKey.d);
    expect(restored.rsaPrivateKey.d).toBe(original.rsaPrivateKey.d);
    // A reload keeps the session (HttpOnly cookie) and the keys.
    await other.reload();
    await expect(other.getByText(`@${user.username}`)).toBeVisible();
    await device.close();
  });

  test("wrong password and duplicate username get clear messages; a taken email is answered like a new one", async ({ page }) => {
    const user = newUser("carol");
    await signUp(page, user);
    await signOut(page);
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();

    await signIn(page, { email: user.email, password: `${user.password}-wrong` });
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeEnabled();

    await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel("Username").fill(user.username.toUpperCase());
    await page.getByLabel("Email").fill(`other.${user.email}`);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("This username is already taken.");

    // the address has an account: the sign-up goes through as for a new address (issue 47, ADR 82)
    await page.getByLabel("Username").fill(`${user.username}x`);
    await page.getByLabel("Email").fill(user.email.toUpperCase());
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await expect(page.getByText(`@${user.username}x`)).toBeAttached({ timeout: 20_000 });
  });

  test("the raw password never leaves the browser and is stored nowhere on the server", async ({ page, browser }) => {
    const user = newUser("dave");
    user.password = `Canary-${Date.now()}-pw`;
    const sent: string[] = [];
    const record = (p: typeof page) =>
      p.on("request", (request) => {
        sent.push(request.url(), request.postData() ?? "", JSON.stringify(request.headers()));
      });
    record(page);
    await signUp(page, user);
    await signOut(page);
    await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
    const device = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const other = await device.newPage();
    record(other);
    await signIn(other, user);
    await expect(other.getByText(`@${user.username}`)).toBeVisible({ timeout: 20_000 });
    await device.close();

    expect(sent.length).toBeGreaterThan(4);
    expect(sent.some((s) => s.includes("/api/auth/signin"))).toBe(true);
    expect(sent.filter((s) => s.includes(user.password))).toEqual([]);
    // The email does reach the server, which shows the scan below can see what was sent.
    expect(filesContaining([process.env.E2E_PB_DATA!], user.email.toLowerCase()).length).toBeGreaterThan(0);
    expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], user.password)).toEqual([]);
  });
});

test("after signing in, the owner is told how many sign-in attempts failed since the last visit", async ({ page, browser }) => {
  const user = newUser("guessed");
  await signUp(page, user);
  await signOut(page);

  // Someone else, elsewhere, gets the password wrong twice.
  const guesser = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const guesserPage = await guesser.newPage();
  for (let i = 0; i < 2; i++) {
    await signIn(guesserPage, { email: user.email, password: `wrong-guess-${i}` });
    await expect(guesserPage.getByRole("alert")).toHaveText("Invalid email or password.");
  }
  await guesser.close();

  await signIn(page, user);
  const notice = page.getByRole("alert").filter({ hasText: "2 failed sign-in attempts since your last visit" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toBeHidden();
  // Told once: the next sign-in has nothing to tell.
  await signOut(page);
  await signIn(page, user);
  await expect(page.getByText(`@${user.username}`)).toBeVisible();
  await expect(page.getByText(/failed sign-in attempts? since your last visit/)).toHaveCount(0);
});
