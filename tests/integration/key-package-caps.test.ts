// What one account may keep in key packages (docs/decisions/0068-caps-per-account.md,
// pb_hooks/lib/mls_packages.js): 20 devices, 60 waiting one-time packages each. Tried as an attacker
// with raw HTTP against PocketBase, and as a person with several devices.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

let server: RunningPocketBase;

beforeAll(async () => {
  server = await startPocketBase();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

// the size of a real key package (about 300 bytes, base64url); the server checks only the alphabet
const fakePackage = (bytes = 300) => randomBytes(bytes).toString("base64url");
const device = () => `device-${randomBytes(8).toString("hex")}`;

const upload = (user: TestUser, id: string, count: number, bytes = 300) =>
  postJson(
    server.url,
    "/api/chat/mls/key-packages",
    { device: id, one_time: Array.from({ length: count }, () => fakePackage(bytes)), last_resort: fakePackage(bytes) },
    user.token,
  );

/** How many key packages the account has stored, as its owner may list them. */
async function stored(user: TestUser): Promise<number> {
  const res = await fetch(`${server.url}/api/collections/mls_key_packages/records?perPage=1`, { headers: { Authorization: user.token } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { totalItems: number }).totalItems;
}

describe("key packages per account", () => {
  it("a person's several devices keep their pools filled, again and again, under the caps", { timeout: 60_000 }, async () => {
    const person = await signUpUser(server.url);
    const devices = [device(), device(), device(), device()];
    // each device's first pool, then three refills (a browser sends 10 when fewer than 4 are left)
    for (let round = 0; round < 4; round++) for (const id of devices) expect((await upload(person, id, 10)).status).toBe(200);
    expect(await stored(person)).toBe(devices.length * (4 * 10 + 1));
  });

  it("refuses a 21st device with its text (409) and keeps what the other 20 have", { timeout: 60_000 }, async () => {
    const attacker = await signUpUser(server.url);
    for (let n = 0; n < 20; n++) expect((await upload(attacker, device(), 50)).status).toBe(200);
    const before = await stored(attacker);
    expect(before).toBe(20 * 51);
    const refused = await upload(attacker, device(), 1);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      message:
        "This account already has keys for 20 devices, the most it can have. A device that has not been used for 30 days gives up its place.",
    });
    expect(await stored(attacker)).toBe(before);
  });

  it("refuses a device more than 60 waiting one-time packages (409) and keeps the ones it has", { timeout: 60_000 }, async () => {
    const attacker = await signUpUser(server.url);
    const id = device();
    expect((await upload(attacker, id, 50)).status).toBe(200);
    expect((await upload(attacker, id, 10)).status).toBe(200);
    const refused = await upload(attacker, id, 1);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      message: "This device already has key packages waiting (at most 60). Send more once some have been used.",
    });
    expect(await stored(attacker)).toBe(61);
  });

  // the largest packages the server takes (8,000 characters), as many as one request may carry
  it("bounds what one account can add in 30 s of trying", { timeout: 60_000 }, async () => {
    const attacker = await signUpUser(server.url);
    const started = Date.now();
    const statuses = new Map<number, number>();
    let bytes = 0;
    while (Date.now() - started < 30_000) {
      const res = await upload(attacker, device(), 50, 6000);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) bytes += 51 * 8000;
      if (res.status >= 500) break;
    }
    console.log(`key packages: ${[...statuses].map(([s, n]) => `${n}x${s}`).join(", ")}; about ${(bytes / 1e6).toFixed(2)} MB stored`);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(await stored(attacker)).toBeLessThanOrEqual(20 * 61);
  });
});
