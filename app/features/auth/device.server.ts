import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { env } from "~/server/env.server";

// A device that signed in to an account before: a signed, HttpOnly cookie, sent only to the sign-in
// routes, with a random device id and the accounts (a hash of each email) it signed in to. With it,
// the device's sign-ins are counted against the device's own limit rather than the account's
// (pb_hooks/lib/signin.js), so guesses from elsewhere cannot lock the owner out of their devices.
const e = env();
const deviceCookie = createCookie("chatcrypt_device", {
  httpOnly: true,
  sameSite: "lax",
  path: "/api/auth",
  secure: e.COOKIE_SECURE === "true",
  secrets: [e.sessionSecret],
  maxAge: 60 * 60 * 24 * 365,
});

const ACCOUNTS_KEPT = 5;

interface Device {
  id: string;
  accounts: string[];
}

const accountHash = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22);

async function readDevice(request: Request): Promise<Device | null> {
  const value = (await deviceCookie.parse(request.headers.get("Cookie")).catch(() => null)) as Partial<Device> | null;
  if (!value || typeof value.id !== "string" || !Array.isArray(value.accounts)) return null;
  return { id: value.id, accounts: value.accounts.filter((a): a is string => typeof a === "string").slice(-ACCOUNTS_KEPT) };
}

/** The header that tells PocketBase this device signed in to the account before (none otherwise). */
export async function knownDeviceHeaders(request: Request, email: string): Promise<Record<string, string>> {
  const device = await readDevice(request);
  return device?.accounts.includes(accountHash(email)) ? { "X-ChatCrypt-Device": device.id } : {};
}

/** Set-Cookie for the device after a successful sign-in or sign-up to the account. */
export async function rememberDevice(request: Request, email: string): Promise<string> {
  const device = (await readDevice(request)) ?? { id: randomBytes(18).toString("base64url"), accounts: [] };
  const hash = accountHash(email);
  const accounts = [...device.accounts.filter((a) => a !== hash), hash].slice(-ACCOUNTS_KEPT);
  return deviceCookie.serialize({ id: device.id, accounts });
}
