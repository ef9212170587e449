import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { deriveChannelSecrets, encryptMessage, exportPublicKey, generateKeyBundle } from "../../app/crypto";
import { expect, newUser, signIn, signUp, type TestUser } from "./fixtures";

export interface Person {
  context: BrowserContext;
  page: Page;
  user: TestUser;
  id: string;
}

/** A signed-up user in their own browser context (their own device); `user`: the name and password to sign up with. */
export async function person(
  browser: Browser,
  prefix: string,
  baseURL = process.env.E2E_BASE_URL,
  user = newUser(prefix),
): Promise<Person> {
  const context = await browser.newContext({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await signUp(page, user);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}").userId as string);
  return { context, page, user, id };
}

/**
 * A colleague: signs up through a channel's invite link and lands in that channel (joined on arrival),
 * so that they and the channel's people start direct conversations with each other at once (ADR 0052).
 */
export async function colleague(
  browser: Browser,
  prefix: string,
  link: string,
  channelName: string,
  user = newUser(prefix),
): Promise<Person> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(link);
  // the page has kept the invite (pending invite data) once it resets the address to the bare path;
  // signing up reloads the page, which would otherwise lose a link the page had not read yet
  await expect(page).not.toHaveURL(/invite=/);
  await signUp(page, user);
  await expect(page.getByRole("heading", { name: `# ${channelName}` })).toBeVisible({ timeout: 30_000 });
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys") ?? "{}").userId as string);
  return { context, page, user, id };
}

export async function createChannel(page: Page, name: string, password: string): Promise<string> {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  await expect(dialog.getByText("Share this password")).toBeVisible();
  await dialog.getByLabel("Channel Name").fill(name);
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await page.getByRole("button", { name: "Copy ID" }).click();
  await expect(page.getByText("Channel ID copied to the clipboard.")).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Creates a sealed channel (ADR 0015) from the Create Channel dialog; answers its id. */
export async function createSealed(page: Page, name: string, password: string): Promise<string> {
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Create Channel" });
  await dialog.getByLabel("Channel Name").fill(name);
  await dialog.getByLabel("Password").fill(password);
  await expect(dialog.getByRole("radio", { name: "Classic" })).toBeChecked();
  await expect(dialog.getByText("Classic (anyone with the password reads the whole history)")).toBeVisible();
  await dialog.getByLabel("Sealed (forward secrecy; members read from the moment they join)").check();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await page.getByRole("button", { name: "Copy ID" }).click();
  return page.evaluate(() => navigator.clipboard.readText());
}

export async function joinChannel(page: Page, channelId: string, password: string) {
  await page.getByRole("button", { name: "Join", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Join Channel" });
  await dialog.getByLabel("Channel ID").fill(channelId);
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Join", exact: true }).click();
  return dialog;
}

export async function joinAndOpen(page: Page, channelId: string, password: string, name: string) {
  const dialog = await joinChannel(page, channelId, password);
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  await waitLive(page);
}

export async function send(page: Page, text: string) {
  const box = page.getByLabel("Message", { exact: true });
  await box.fill(text);
  await box.press("Enter");
  await expect(box).toHaveValue("");
}

export const log = (page: Page) => page.getByRole("log", { name: "Messages" });

/** A channel's entry in the sidebar's Channels list (its unread and mention counts are images in it). */
export const channelRow = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Channels" }).getByRole("listitem").filter({ hasText: name });

/** Waits until the page's live stream for the open channel is subscribed. */
export const waitLive = (page: Page) => expect(page.locator('main.chat-pane[data-live="true"]')).toBeVisible({ timeout: 20_000 });
/**
 * Live, and this device is in the open sealed channel's or direct conversation's group (the Workspace's
 * data-keys; the members panel shows its security code then): what is sent from now on, it can read.
 */
export const waitInGroup = (page: Page) =>
  expect(page.locator('main.chat-pane[data-live="true"][data-keys="ready"]')).toBeVisible({ timeout: 30_000 });

/** The texts of the message list, in screen order. */
export const messageTexts = (page: Page) => log(page).locator(".message-text").allInnerTexts();

/** Waits until exactly one message of the log holds `text` (it arrived, and only once). */
export const once = (page: Page, text: string) =>
  expect(log(page).locator(".message-text", { hasText: text })).toHaveCount(1, { timeout: 30_000 });

/** Whether an element is on the screen and the topmost thing at its middle (nothing covers it). */
export const uncovered = (target: Locator) =>
  target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return Boolean(at && (at === el || el.contains(at)));
  });

/** The message (article) in the log whose text contains `text`. */
export const message = (page: Page, text: string) =>
  log(page)
    .getByRole("article")
    .filter({ has: page.locator(".message-text", { hasText: text }) });

/**
 * Waits until the person's device has sent its MLS key packages (sign-up does it before the workspace
 * shows, a sign-in right after its first paint: ADR 0047), so that a direct conversation started with
 * them adds their device by Welcome.
 */
export async function keyPackagesSent(
  p: Person,
  pb: { url: string; superuser: { email: string; password: string } } = {
    url: process.env.E2E_PB_URL!,
    superuser: JSON.parse(process.env.E2E_SUPERUSER!),
  },
) {
  const admin = await superuserClient(pb.url, pb.superuser);
  await expect
    .poll(async () => (await admin.collection("mls_key_packages").getList(1, 1, { filter: `user = "${p.id}"` })).totalItems, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
}

/**
 * The server (a PocketBase superuser) swaps a user's identity keys in their profile for keys of its own
 * and posts "forged by the server" in a classic channel under that user's name, signed with them.
 */
export async function swapKeysAndForge(user: Person, channelId: string, password: string) {
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const mallory = await generateKeyBundle();
  await admin.collection("profiles").update(user.id, {
    ecdh_public_key: await exportPublicKey(mallory.ecdhPublicKey),
    rsa_public_key: await exportPublicKey(mallory.rsaPublicKey),
  });
  const channel = await admin.collection("channels").getOne(channelId);
  const { key } = await deriveChannelSecrets(password, channelId, channel.kdf_iterations as number);
  const forged = await encryptMessage({
    key,
    channelId,
    senderId: user.id,
    plaintext: "forged by the server",
    signingKey: mallory.rsaPrivateKey,
  });
  await admin.collection("messages").create({ channel: channelId, sender: user.id, encrypted_content: forged });
}

/** Starts a conversation with these people from "New message" (found in the picker by username). */
export async function startConversation(page: Page, usernames: string[], name?: string) {
  await page.getByRole("button", { name: "New message" }).click();
  const dialog = page.getByRole("dialog", { name: "New message" });
  for (const username of usernames) await dialog.getByRole("checkbox", { name: username }).check();
  if (name) await dialog.getByLabel("Conversation name (optional)").fill(name);
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** Opens the conversation from the sidebar (reloading once if the list has not caught up yet). */
export async function openConversation(page: Page, title: string) {
  const button = page.getByRole("button", { name: `@ ${title}`, exact: true });
  await expect(button).toBeVisible({ timeout: 20_000 });
  await button.click();
  await expect(page.getByRole("heading", { name: `@ ${title}` })).toBeVisible();
  await waitLive(page);
}

/** Every desktop notification pages of this context show is recorded (window.__shown), and the window reports itself unfocused (only then are they shown). */
export async function recordNotifications(context: BrowserContext) {
  await context.addInitScript(() => {
    const shown: { title: string; body: string }[] = [];
    // (the notifications themselves too: a test clicks one as the system would, with a click event)
    const made: Notification[] = [];
    Object.assign(window, { __shown: shown, __notifications: made });
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body ?? "" });
        made.push(this);
      }
    }
    Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
    document.hasFocus = () => false;
  });
}

/** Every request a context sends from now on (address, headers and body), into `into`, for canary checks. */
export function recordRequests(context: BrowserContext, into: string[] = []): string[] {
  context.on("request", (request) => into.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? ""));
  return into;
}

/** Alice's new channel `name` with her message `text` pinned as its first (for tests of a long history). */
export async function channelWithPin(browser: Browser, name: string, text: string) {
  const alice = await person(browser, "alice");
  const password = `${name}-${Date.now()}`;
  const channelId = await createChannel(alice.page, name, password);
  await waitLive(alice.page);
  await send(alice.page, text);
  const article = log(alice.page).getByRole("article").filter({ hasText: text });
  await article.hover();
  await article.getByRole("button", { name: "More" }).click();
  await alice.page.getByRole("menuitem", { name: "Pin message" }).click();
  await expect(article.getByText("Pinned by you")).toBeVisible();
  return { alice, password, channelId };
}

/**
 * Makes an invite to the open channel from its Share Link dialog (expiry and uses chosen there) and
 * answers the link copied (docs/decisions/0057-invites-and-bans.md).
 */
export async function copyInviteLink(page: Page, limits: { expires?: string; uses?: string } = {}): Promise<string> {
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText().catch(() => ""));
  // (a link copied just before may still be in the clipboard, its toast still on the screen: wait for the new one)
  const before = await clipboard();
  await page.getByRole("button", { name: "Share Link" }).click();
  const dialog = page.getByRole("dialog", { name: /^Invite to #/ });
  if (limits.expires) await dialog.getByLabel("Expires").selectOption({ label: limits.expires });
  if (limits.uses) await dialog.getByLabel("Uses").selectOption({ label: limits.uses });
  await dialog.getByRole("button", { name: "Copy invite link" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Invite link copied").first()).toBeVisible();
  await expect.poll(clipboard).not.toBe(before);
  return clipboard();
}

/**
 * A group conversation "Trio" that `creator` starts with `first` and `second`: `first` writes texts[0],
 * `second` reads it and answers texts[1], which `first` reads (every device involved has joined).
 */
export async function trioWithMessages(creator: Person, first: Person, second: Person, texts: [string, string]) {
  await startConversation(
    creator.page,
    [first.user.username, second.user.username].filter((u) => u !== creator.user.username),
    "Trio",
  );
  await waitLive(creator.page);
  await openConversation(first.page, "Trio");
  await send(first.page, texts[0]);
  await openConversation(second.page, "Trio");
  await expect(log(second.page).getByText(texts[0])).toBeVisible({ timeout: 30_000 });
  await send(second.page, texts[1]);
  await expect(log(first.page).getByText(texts[1])).toBeVisible({ timeout: 30_000 });
}

/** How many entries the user's message archive holds (ADR 0048), read as the superuser. */
export async function archivedCount(userId: string): Promise<number> {
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  return (await admin.collection("message_archive").getList(1, 1, { filter: `owner = "${userId}"` })).totalItems;
}

/** Opens the account's Notification Settings from the header's Menu (not from a conversation). */
export async function openNotificationSettings(page: Page) {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page.getByRole("menuitem", { name: "Notification settings" }).click();
  return page.getByRole("dialog", { name: "Notification Settings" });
}

/** A new device of the user (a new browser context), signed in with the password. */
export async function newDevice(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signIn(page, user);
  await expect(page.getByText(`@${user.username}`)).toBeAttached({ timeout: 20_000 });
  return page;
}
