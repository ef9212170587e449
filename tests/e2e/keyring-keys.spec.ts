import { pbkdf2Sync, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { superuserClient } from "../integration/pocketbase";
import { decryptText, deriveVaultKey, encryptText, importKeyBundle, type StoredKeyBundle } from "../../app/crypto";
import { keyringAad } from "../../app/conversation/keyring/entry";
import { expect, filesContaining, signIn, test } from "./fixtures";
import { createChannel, log, person, recordRequests, send } from "./helpers";

// ADR 35: each keyring entry carries the channel's master secret (the PBKDF2 output) beside the password.

const secret = (label: string) => `${label}-${randomBytes(6).toString("hex")}`;
const masterOf = (password: string, channelId: string) => pbkdf2Sync(password, channelId, 600_000, 32, "sha256");

/** In the page: the salt of every PBKDF2 run, as text, in window.__pbkdf2Salts (the derivation itself unchanged). */
function countPbkdf2() {
  const salts: string[] = [];
  (window as unknown as { __pbkdf2Salts: string[] }).__pbkdf2Salts = salts;
  const subtle = crypto.subtle;
  // (a page opens on about:blank, which is no secure context: no WebCrypto there to watch)
  if (!subtle) return;
  const record = (algorithm: AlgorithmIdentifier | Pbkdf2Params) => {
    if (typeof algorithm === "object" && algorithm.name.toUpperCase() === "PBKDF2") {
      const salt = (algorithm as Pbkdf2Params).salt;
      const bytes = salt instanceof ArrayBuffer ? new Uint8Array(salt) : new Uint8Array(salt.buffer, salt.byteOffset, salt.byteLength);
      salts.push(new TextDecoder().decode(bytes));
    }
  };
  const deriveBits = subtle.deriveBits.bind(subtle);
  const deriveKey = subtle.deriveKey.bind(subtle);
  subtle.deriveBits = ((algorithm: Pbkdf2Params, ...rest: [CryptoKey, number]) => {
    record(algorithm);
    return deriveBits(algorithm, ...rest);
  }) as typeof subtle.deriveBits;
  subtle.deriveKey = ((algorithm: Pbkdf2Params, ...rest: Parameters<typeof subtle.deriveKey> extends [unknown, ...infer R] ? R : never) => {
    record(algorithm);
    return deriveKey(algorithm, ...rest);
  }) as typeof subtle.deriveKey;
}

const pbkdf2Salts = (page: Page) => page.evaluate(() => (window as unknown as { __pbkdf2Salts: string[] }).__pbkdf2Salts);

/** The user's keyring key, from the key bundle the signed-in page keeps (as the page derives it). */
async function keyringKeyOf(page: Page) {
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("chatcrypt_keys")!) as StoredKeyBundle);
  const bundle = await importKeyBundle(stored);
  return deriveVaultKey(bundle.ecdhPrivateKey, bundle.ecdhPublicKey, "keyring");
}

test("keyring: another device takes each channel's key from the keyring without PBKDF2; an old entry is completed; a wrong or altered key reads nothing", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const sent = recordRequests(alice.context);
  const passwords = { one: secret("km-one"), two: secret("km-two"), three: secret("km-three"), four: secret("km-four") };
  const ids = {
    one: await createChannel(alice.page, "Keys One", passwords.one),
    two: "",
    three: "",
    four: "",
  };
  await send(alice.page, "one from the keyring's key");
  ids.two = await createChannel(alice.page, "Keys Two", passwords.two);
  await send(alice.page, "two from the password");
  ids.three = await createChannel(alice.page, "Keys Three", passwords.three);
  await send(alice.page, "three never read");
  ids.four = await createChannel(alice.page, "Keys Four", passwords.four);
  await send(alice.page, "four never read");

  // The entry Alice's device wrote holds the password, its count and the master, sealed and bound.
  const admin = await superuserClient(process.env.E2E_PB_URL!, JSON.parse(process.env.E2E_SUPERUSER!));
  const keyringKey = await keyringKeyOf(alice.page);
  const entryOf = (channelId: string) =>
    admin.collection("keyring_entries").getFirstListItem(admin.filter("user = {:u} && channel = {:c}", { u: alice.id, c: channelId }));
  const opened = async (channelId: string) =>
    JSON.parse(await decryptText(keyringKey, (await entryOf(channelId)).data as string, keyringAad(alice.id, channelId))) as {
      p: string;
      i: number;
      m?: string;
    };
  expect(await opened(ids.one)).toEqual({ p: passwords.one, i: 600_000, m: masterOf(passwords.one, ids.one).toString("base64url") });

  // Two becomes an entry from before the master (password and count only); Three carries a wrong master,
  // properly sealed; Four's ciphertext is altered (the server's doing).
  const rewrite = async (channelId: string, value: unknown) =>
    admin.collection("keyring_entries").update((await entryOf(channelId)).id, {
      data: await encryptText(keyringKey, JSON.stringify(value), keyringAad(alice.id, channelId)),
    });
  await rewrite(ids.two, { p: passwords.two, i: 600_000 });
  await rewrite(ids.three, { p: passwords.three, i: 600_000, m: randomBytes(32).toString("base64url") });
  const four = await entryOf(ids.four);
  const data = Buffer.from(four.data as string, "base64url");
  data[data.length - 5] ^= 0x01;
  await admin.collection("keyring_entries").update(four.id, { data: data.toString("base64url") });

  // A fresh device signs in: One reads with no PBKDF2 for it at all.
  const contextB = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  recordRequests(contextB, sent);
  await contextB.addInitScript(countPbkdf2);
  const pageB = await contextB.newPage();
  await signIn(pageB, alice.user);
  const open = async (name: string) => {
    await pageB.getByRole("button", { name: `# ${name}`, exact: true }).click();
    await expect(pageB.getByRole("heading", { name: `# ${name}` })).toBeVisible();
  };
  await open("Keys One");
  await expect(log(pageB).getByText("one from the keyring's key")).toBeVisible({ timeout: 20_000 });

  // Two reads from its password, and the entry gets the master in place.
  await open("Keys Two");
  await expect(log(pageB).getByText("two from the password")).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(async () => (await opened(ids.two)).m, { timeout: 20_000 })
    .toBe(masterOf(passwords.two, ids.two).toString("base64url"));
  expect(await pbkdf2Salts(pageB)).not.toContain(ids.one);
  expect(await pbkdf2Salts(pageB)).toContain(ids.two);

  // Three's wrong key reads nothing, as a wrong password would: the history loads and shows no message.
  await open("Keys Three");
  await expect(pageB.getByText("No messages yet.")).toBeVisible({ timeout: 20_000 });
  await expect(log(pageB).getByRole("article")).toHaveCount(0);
  // Four's altered entry does not open: the channel has no password on this device, as before.
  await open("Keys Four");
  await expect(pageB.getByText("Channel password not found")).toBeVisible();
  await expect(log(pageB).getByText("four never read")).toHaveCount(0);

  // Canary: no channel's master, in any encoding, went to the server or into its files and logs.
  const dirs = [process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!];
  for (const [name, password] of Object.entries(passwords)) {
    const master = masterOf(password, ids[name as keyof typeof ids]);
    for (const form of [master.toString("base64url"), master.toString("base64"), master.toString("hex")]) {
      expect(sent.some((entry) => entry.includes(form))).toBe(false);
      expect(filesContaining(dirs, form)).toEqual([]);
    }
  }
  await contextB.close();
  await alice.context.close();
});
