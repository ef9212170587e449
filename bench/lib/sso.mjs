// The single sign-on phase (issue 44, docs/decisions/0063-single-sign-on.md): the test identity
// provider (tools/oidc-provider/) on loopback, set up as the workspace's provider; an SSO account made
// once the way a person makes it (the first sign-in in chromium: an encryption passphrase, no passkey,
// a channel). Then, BENCH_SSO_RUNS times (default 5), a new device (a fresh browser context, no keys)
// signs in: "Sign in with Acme ID", the provider's login form, back to ChatCrypt, the encryption
// passphrase, until the workspace lists the account's channel. Timed from the test process, per step,
// without the person's typing: the click to the provider's form (our redirect and the provider's
// page), the provider's "Login" to the unlock screen (the provider's redirects, the code exchange and
// ID token check, the session), "Unlock" to the channel shown (PBKDF2 600k and unwrapping in the page,
// the workspace's load, the keyring and the channel list).
import { chromium } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { startProvider, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from "../../scripts/lib/oidc-provider.mjs";
import { LAUNCH_ARGS } from "./browser.mjs";
import { request } from "./http.mjs";
import { ms, n, yes } from "./format.mjs";

const RUNS = Number(process.env.BENCH_SSO_RUNS || 5);
const PROVIDER = "Acme ID";
const SETTINGS_ID = "ssosettings0001";
const TARGET_MS = 1_500;

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** Times `act` until `done` resolves (ms, from the test process). */
async function timed(act, done) {
  const start = performance.now();
  await act();
  await done();
  return performance.now() - start;
}

/** "Sign in with Acme ID" and the provider's form: the steps' times (typing excluded). */
async function providerSteps(page, account) {
  await page.goto("/");
  const button = page.getByRole("button", { name: `Sign in with ${PROVIDER}` });
  await button.waitFor({ timeout: 30_000 });
  const toProvider = await timed(
    () => button.click(),
    () => page.getByLabel("Username").waitFor({ timeout: 30_000 }),
  );
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password").fill(account.password);
  return { toProvider, login: page.getByRole("button", { name: "Login" }) };
}

/** The first sign-in, untimed: the account, its passphrase, no passkey, no recovery key now, a channel. */
async function firstSignIn(browser, baseUrl, account, channel) {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    const page = await context.newPage();
    const { login } = await providerSteps(page, account);
    await login.click();
    await page.getByRole("heading", { name: "Set up encryption" }).waitFor({ timeout: 30_000 });
    await page.getByLabel("Encryption passphrase", { exact: true }).fill(account.passphrase);
    await page.getByLabel("Confirm encryption passphrase").fill(account.passphrase);
    await page.getByRole("button", { name: "Set up encryption" }).click();
    await page.getByRole("button", { name: "Not now" }).click({ timeout: 60_000 });
    const offer = page.getByRole("dialog", { name: "Save your recovery key" });
    await offer.getByRole("button", { name: "Not now" }).click({ timeout: 30_000 });
    await page
      .getByRole("dialog", { name: "Continue without a recovery key?" })
      .getByRole("button", { name: "Continue without it" })
      .click({ timeout: 30_000 });
    await page.getByRole("button", { name: "Create", exact: true }).click({ timeout: 30_000 });
    const dialog = page.getByRole("dialog", { name: "Create Channel" });
    await dialog.getByLabel("Channel Name").fill(channel.name);
    await dialog.getByLabel("Password").fill(channel.password);
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("heading", { name: `# ${channel.name}` }).waitFor({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}

/** A new device signs in with the provider and unlocks with the passphrase: its steps' times. */
async function signInOnNewDevice(browser, baseUrl, account, channel) {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    const page = await context.newPage();
    const { toProvider, login } = await providerSteps(page, account);
    const toUnlock = await timed(
      () => login.click(),
      () => page.getByRole("heading", { name: "Unlock your encryption keys" }).waitFor({ timeout: 30_000 }),
    );
    await page.getByLabel("Encryption passphrase").fill(account.passphrase);
    const toChannel = await timed(
      () => page.getByRole("button", { name: "Unlock", exact: true }).click(),
      () => page.getByRole("button", { name: `# ${channel.name}`, exact: true }).waitFor({ timeout: 60_000 }),
    );
    return { toProvider, toUnlock, toChannel, total: toProvider + toUnlock + toChannel };
  } finally {
    await context.close();
  }
}

/** The phase's figures, or {error} when it failed (the bench goes on). */
export async function ssoPhase({ stack, tag, log }) {
  try {
    return await measure({ stack, tag, log });
  } catch (error) {
    log(`sso phase failed: ${error.message}`);
    return { error: String(error.message ?? error) };
  }
}

async function measure({ stack, tag, log }) {
  const provider = await startProvider([`${stack.webUrl}/auth/sso/callback`]);
  const auth = { Authorization: stack.superuserToken };
  const settings = await request(`${stack.pbUrl}/api/collections/sso_settings/records`, {
    method: "POST",
    headers: auth,
    body: { id: SETTINGS_ID, issuer: provider.issuer, client_id: OIDC_CLIENT_ID, client_secret: OIDC_CLIENT_SECRET, name: PROVIDER },
  });
  if (settings.status !== 200) throw new Error(`sso settings: ${settings.status} ${settings.text.slice(0, 200)}`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: LAUNCH_ARGS });
  try {
    const account = {
      username: `bsso${tag}`,
      password: `pw-${randomBytes(9).toString("base64url")}`,
      passphrase: `bench passphrase ${randomBytes(6).toString("hex")} 42`,
    };
    await provider.addUser({ username: account.username, password: account.password, email: `${account.username}@example.com` });
    const channel = { name: `bench-sso-${tag}`, password: `pw-S-${tag}` };
    await firstSignIn(browser, stack.webUrl, account, channel);
    log(`  sso: account and channel made by a first sign-in; ${RUNS} sign-ins on new devices ...`);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await signInOnNewDevice(browser, stack.webUrl, account, channel);
      runs.push(run);
      log(
        `  sso run ${i + 1}: ${run.total.toFixed(0)} ms (to the provider ${run.toProvider.toFixed(0)}, login to unlock screen ${run.toUnlock.toFixed(0)}, unlock to channel ${run.toChannel.toFixed(0)})`,
      );
    }
    const pick = (key) => median(runs.map((r) => r[key]));
    return {
      runs: runs.length,
      total: pick("total"),
      toProvider: pick("toProvider"),
      toUnlock: pick("toUnlock"),
      toChannel: pick("toChannel"),
      totals: runs.map((r) => Math.round(r.total)),
    };
  } finally {
    await browser.close();
    await provider.stop();
  }
}

/** The phase's row in docs/benchmarks.md. */
export function ssoRows(r) {
  const s = r.sso;
  if (!s) return [];
  if (s.error) return [["SSO sign-in to first channel shown", `not measured: ${s.error}`, "—", "—", "—"]];
  return [
    [
      `SSO sign-in to first channel shown (new device, passphrase; median of ${n(s.runs)})`,
      ms(s.total, 0),
      `to the provider ${ms(s.toProvider, 0)}, its login to unlock ${ms(s.toUnlock, 0)}, unlock to channel ${ms(s.toChannel, 0)}; typing excluded`,
      `≤ ${n(TARGET_MS)} ms`,
      yes(s.total <= TARGET_MS),
    ],
  ];
}
