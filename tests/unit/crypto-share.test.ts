// A channel's new password sealed by a channel admin to one member (app/crypto/share.ts, ADR 0060): only
// that member opens it, only for that channel, admin and epoch, and only when the admin signed it.
import { beforeAll, describe, expect, it } from "vitest";
import { generateKeyBundle, openShare, sealShare, type KeyBundle } from "../../app/crypto";

let admin: KeyBundle;
let member: KeyBundle;
let other: KeyBundle;
beforeAll(async () => {
  [admin, member, other] = await Promise.all([generateKeyBundle(), generateKeyBundle(), generateKeyBundle()]);
});

const context = { channelId: "9ee09a37-fac9-4094-8afa-e0f62893886b", fromId: "adminaaaaaaaaaa", toId: "memberbbbbbbbbb", epoch: 2 };
const secret = { p: "new password", i: 600_000, m: "x".repeat(43) };
const seal = () =>
  sealShare({
    ...context,
    ecdhPrivateKey: admin.ecdhPrivateKey,
    recipientPublicKey: member.ecdhPublicKey,
    signingKey: admin.rsaPrivateKey,
    secret,
  });
const open = (share: string, overrides: Partial<Parameters<typeof openShare>[0]> = {}) =>
  openShare({
    ...context,
    ecdhPrivateKey: member.ecdhPrivateKey,
    senderPublicKey: admin.ecdhPublicKey,
    verifyKeys: [admin.rsaPublicKey],
    share,
    ...overrides,
  });

describe("channel password shares", () => {
  it("the member opens what the admin sealed and signed", async () => {
    await expect(open(await seal())).resolves.toEqual(secret);
    // an earlier key of the admin's first, then the current one: still opens
    await expect(open(await seal(), { verifyKeys: [other.rsaPublicKey, admin.rsaPublicKey] })).resolves.toEqual(secret);
  });

  it("refuses another recipient, another channel, admin or epoch, a forged signature and malformed input", async () => {
    const share = await seal();
    await expect(open(share, { ecdhPrivateKey: other.ecdhPrivateKey })).rejects.toThrow("authentication failed");
    await expect(open(share, { epoch: 3 })).rejects.toThrow("bad signature");
    await expect(open(share, { channelId: "0ee09a37-fac9-4094-8afa-e0f62893886b" })).rejects.toThrow("bad signature");
    await expect(open(share, { verifyKeys: [other.rsaPublicKey] })).rejects.toThrow("bad signature");
    await expect(open(share, { verifyKeys: [] })).rejects.toThrow("bad signature");
    // someone else (the server) seals a password of their own to the member with a key of their own: not signed by the admin
    const forged = await sealShare({
      ...context,
      ecdhPrivateKey: other.ecdhPrivateKey,
      recipientPublicKey: member.ecdhPublicKey,
      signingKey: other.rsaPrivateKey,
      secret: { ...secret, p: "chosen by the server" },
    });
    await expect(open(forged, { senderPublicKey: other.ecdhPublicKey })).rejects.toThrow("bad signature");
    const [ct, sig] = share.split(".");
    await expect(open(`${ct}x.${sig}`)).rejects.toThrow("bad signature");
    for (const bad of ["", "nodot", "a.b.c", `.${sig}`]) await expect(open(bad)).rejects.toThrow();
  });
});
