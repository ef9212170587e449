// The hostile suite's inputs (tests/integration/hostile.test.ts): wrong methods, evil strings and ids,
// wrong types, garbage bodies, a valid body per JSON route (to break one field at a time), and every
// route of the web app and of PocketBase's server functions.

import { randomBytes } from "node:crypto";
import { fakePublicKey, randomSecret, randomVerifier } from "./pocketbase";
import type { RawRequest, Visitor } from "./web";

export { GET_ROUTES, ID_GET_ROUTES, ID_POST_ROUTES, PB_HOOKS, PUBLIC_GET_ROUTES } from "./hostile-routes";

export const WRONG_METHODS = [
  "TRACE",
  "PROPFIND",
  "PUT",
  "DELETE",
  "PATCH",
  "MKCOL",
  "COPY",
  "MOVE",
  "LOCK",
  "UNLOCK",
  "PROPPATCH",
  "SEARCH",
  "REPORT",
  "PURGE",
];
export const EVIL_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "' OR 1=1 --",
  '" || 1=1 || "',
  "') || id != ('",
  "{:id}",
  '@request.auth.id != ""',
  "id ~ '%'",
  "../../../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "<script>alert(1)</script>",
  "${7*7}",
  "a".repeat(70_000),
];
export const EVIL_IDS = [
  "..",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "....%2F%2F",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%27%20OR%201%3D1%20--",
  "%22%20%7C%7C%201%3D1",
  "%7B%3Aid%7D",
  "x".repeat(2000),
  "AAAAAAAAAAAAAAA",
  "aaaaaaaaaaaaaa",
  "00000000-0000-0000-0000-00000000000g",
  "%F0%9F%94%92",
];
export const FREE_TEXT = new Set([
  "encryptedEcdhPrivateKey",
  "encryptedRsaPrivateKey",
  "ecdhPublicKey",
  "rsaPublicKey",
  "name",
  "encryptedContent",
  "senderPublicKey",
  "channelName",
  "senderUsername",
  "messageContent",
  "text",
  // a profile card's ciphertext (any base64url; its size is capped with a 413)
  "card",
]);
export const OPTIONAL = new Set([
  "clientId",
  "senderPublicKey",
  "messageContent",
  "translationLanguage",
  "translationEnabled",
  "pin",
  "dryRun",
]);
export const WRONG_TYPES: unknown[] = [0, -1, 1e308, true, null, [], ["a"], {}, { $gt: "" }, [[[]]]];
export const GARBAGE_BODIES = [
  "",
  "{",
  "[1, 2",
  "null",
  "[]",
  '"text"',
  "12345",
  '{"a": 1e999}',
  "\u0000\u0001\u0002",
  '{"a":"\\ud800"}',
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"admin": true}}}',
  "<xml/>",
  "a=b&c=d",
];

export interface Case extends RawRequest {
  label: string;
  target: "web" | "pb";
  as?: Visitor;
  /** Accept this 2xx answer for this case (a list the caller may ask for, empty because nothing in it is theirs). */
  ok?: string;
  /** The answer must have this status (an oversize body: 413), never a reset. */
  status?: number;
}

/** A valid body for each JSON route of the web app, to break one field at a time. */
export function validBodies(channelId: string): Record<string, Record<string, unknown>> {
  return {
    // a channel nobody is in: refused (404) even when every field is well formed
    "/api/channels/00000000-0000-4000-8000-000000000000/invites": { expires: "7d", maxUses: 1 },
    // someone who is not a member of alice's channel: refused (404)
    [`/api/channels/${channelId}/members/abcdefghijklmno/admin`]: { admin: true },
    "/api/auth/signin": { email: "x@example.test", loginSecret: randomSecret() },
    // a current password that is not the account's: refused even when every field is well formed
    "/api/auth/password": {
      currentLoginSecret: randomSecret(),
      loginSecret: randomSecret(),
      encryptedEcdhPrivateKey: `v1.${"i".repeat(16)}.${"w".repeat(40)}`,
      encryptedRsaPrivateKey: `v1.${"i".repeat(16)}.${"w".repeat(40)}`,
      kdfIterations: 600_000,
    },
    "/api/auth/signup": {
      id: "abcdefghijklmno",
      email: "y@example.test",
      loginSecret: randomSecret(),
      username: "hostile_user",
      ecdhPublicKey: fakePublicKey(),
      rsaPublicKey: fakePublicKey(),
      encryptedEcdhPrivateKey: "w".repeat(40),
      encryptedRsaPrivateKey: "w".repeat(40),
      kdfIterations: 600_000,
    },
    "/api/channels": {
      id: crypto.randomUUID(),
      name: "n",
      verifier: randomVerifier(),
      ecdhPublicKey: fakePublicKey(),
      kdfIterations: 600_000,
    },
    "/api/channels/join": { channelId, verifier: randomVerifier(), ecdhPublicKey: fakePublicKey() },
    [`/api/channels/${channelId}/messages`]: { encryptedContent: "eA==", clientId: crypto.randomUUID() },
    "/api/contacts": { name: "bmFtZQ", phoneNumber: "cGhvbmU" },
    "/api/settings": { translationLanguage: "es", translationEnabled: true },
    "/api/translate": { text: ["hello"], targetLang: "es" },
    "/api/notify-email": { channelName: "n", senderUsername: "u", messageContent: "m" },
    "/api/link-preview": { url: "https://example.com/" },
    "/api/direct": { id: crypto.randomUUID(), participants: ["abcdefghijklmno"] },
    "/api/people": { username: "hostile_someone" },
    // a request or a block the caller does not have: refused even when well formed
    [`/api/direct/${channelId}/answer`]: { answer: "accept" },
    "/api/blocks": { userId: "abcdefghijklmno" },
    "/api/key-packages": { device: "hostile-device", oneTime: ["AAAA"], lastResort: "AAAA" },
    "/api/key-packages/claim": { userId: "abcdefghijklmno", channelId },
    // the message archive of a classic channel: refused even when well formed
    [`/api/archive/${channelId}`]: { entries: [{ messageId: "abcdefghijklmno", data: "AAAA" }] },
    // a pin for a user who does not exist: refused even when every field is well formed
    "/api/pins": { pin: { subjectId: "abcdefghijklmno", data: "AAAA" }, head: { counter: 1, data: "AAAA" } },
    // display names and photos (ADR 0075): a card's ciphertext, and a key sealed to someone the caller shares no conversation with
    "/api/profile-card": { card: "AAAA" },
    "/api/profile-card/keys": { keys: [{ reader: "abcdefghijklmno", sealedKey: "AAAA" }] },
    "/api/push": {
      endpoint: "https://push.example.com/send/abc",
      keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) },
    },
    "/api/push/unsubscribe": { endpoint: "https://push.example.com/send/abc" },
    // Menu > Account: never the right password or a real link here
    "/api/account/email": { newEmail: "moved@example.test", loginSecret: randomSecret() },
    "/api/account/email-change/check": { token: "e30.e30.c2lnbmF0dXJlLW9mLW5vdGhpbmc" },
    "/api/account/email-change/keys": { token: "e30.e30.c2lnbmF0dXJlLW9mLW5vdGhpbmc", loginSecret: randomSecret() },
    "/api/account/email-change/confirm": {
      token: "e30.e30.c2lnbmF0dXJlLW9mLW5vdGhpbmc",
      loginSecret: randomSecret(),
      newLoginSecret: randomSecret(),
      encryptedEcdhPrivateKey: "w".repeat(40),
      encryptedRsaPrivateKey: "w".repeat(40),
      kdfIterations: 600_000,
    },
    "/api/account/delete": { loginSecret: randomSecret(), dryRun: true },
    "/api/notify-rules": {
      rules: {
        conversations: { [channelId]: { level: "all", mutedUntil: 0 } },
        quiet: { enabled: true, from: "22:00", to: "07:00", timeZone: "UTC" },
      },
    },
    // passkeys: well-formed WebAuthn answers to challenges nobody issued
    "/api/auth/passkey/options": {},
    "/api/auth/passkey/signin": { response: fakeAssertion() },
    "/api/passkeys/options": {},
    "/api/passkeys": { response: fakeRegistration(), name: "Laptop", wrappedEcdhPrivateKey: "", wrappedRsaPrivateKey: "" },
    "/api/recovery-key": { wrappedEcdh: "v1.AAAA.BBBB", wrappedRsa: "v1.AAAA.BBBB" },
    "/api/auth/forgot-password": { email: "x@example.test" },
    // a new device's request nobody started: refused (404) even when well formed
    "/api/auth/device-link/poll": { id: "abcdefghijklmno", secret: "a".repeat(43) },
    "/api/auth/device-link/cancel": { id: "abcdefghijklmno", secret: "a".repeat(43) },
    // a well-formed request with a token PocketBase did not sign: refused even so
    "/api/auth/reset-password": { intent: "open", token: "not-a-reset-token" },
    // single sign-on: a first sign-in's keys and a linking password with tickets the server never gave;
    // an issuer that is not https
    "/api/auth/sso/signup": {
      ticket: "t".repeat(43),
      id: "abcdefghijklmno",
      username: "hostile_sso",
      ecdhPublicKey: fakePublicKey(),
      rsaPublicKey: fakePublicKey(),
      encryptedEcdhPrivateKey: "w".repeat(40),
      encryptedRsaPrivateKey: "w".repeat(40),
      kdfIterations: 600_000,
    },
    "/api/auth/sso/link": { ticket: "t".repeat(43), loginSecret: randomSecret() },
    "/api/auth/sso/passphrase": {
      ticket: "t".repeat(43),
      encryptedEcdhPrivateKey: "w".repeat(40),
      encryptedRsaPrivateKey: "w".repeat(40),
      kdfIterations: 600_000,
    },
    "/api/admin/sso": { issuer: "http://sso.example.test/" },
  };
}

const b64 = (bytes: number) => randomBytes(bytes).toString("base64url");
const fakeAssertion = () => ({
  id: b64(32),
  rawId: b64(32),
  type: "public-key",
  response: { clientDataJSON: b64(120), authenticatorData: b64(37), signature: b64(70), userHandle: b64(15) },
  clientExtensionResults: {},
});
const fakeRegistration = () => ({
  id: b64(32),
  rawId: b64(32),
  type: "public-key",
  response: { clientDataJSON: b64(120), attestationObject: b64(300), transports: ["internal"] },
  clientExtensionResults: {},
});

export async function* oversize(bytes: number) {
  const chunk = Buffer.alloc(64 * 1024, "a");
  yield Buffer.from('{"x":"');
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
  yield Buffer.from('"}');
}
