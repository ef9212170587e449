/**
 * The passkey wrapping (ADR 28): a key from the authenticator's PRF output, bound to the user and the
 * credential, wraps the identity private keys a third time; checked against Node's own HKDF and
 * AES-GCM, and against every wrong input.
 */
import { createDecipheriv, createPrivateKey, hkdfSync, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { derivePasskeyWrapKey, generateKeyBundle, unwrapPrivateKey, wrapPrivateKey, type KeyBundle } from "../../app/crypto";
import { b64uToBytes, expectCryptoError } from "./crypto-helpers";

const userId = "alice1234567890";
const credentialId = randomBytes(32).toString("base64url");
const prf = new Uint8Array(randomBytes(32));
let keys: KeyBundle;

beforeAll(async () => {
  keys = await generateKeyBundle();
});

describe("derivePasskeyWrapKey", () => {
  it("is HKDF-SHA256 over the PRF output, salt the user id, info the credential: the envelope opens with Node's own", async () => {
    const envelope = await wrapPrivateKey(keys.ecdhPrivateKey, await derivePasskeyWrapKey(prf, userId, credentialId), "ecdh", userId);
    const key = Buffer.from(hkdfSync("sha256", prf, userId, `chatcrypt passkey key wrap:${credentialId}`, 32));
    const [, iv, sealed] = envelope.split(".").map((part, i) => (i === 0 ? part : Buffer.from(b64uToBytes(part))));
    const decipher = createDecipheriv("aes-256-gcm", key, iv as Buffer);
    decipher.setAAD(Buffer.from(`chatcrypt:ecdh:${userId}`));
    decipher.setAuthTag((sealed as Buffer).subarray(-16));
    const pkcs8 = Buffer.concat([decipher.update((sealed as Buffer).subarray(0, -16)), decipher.final()]);
    expect(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }).asymmetricKeyType).toBe("ec");
  });

  it("unwraps with the same PRF output, user and credential, and with nothing else", async () => {
    const wrapKey = await derivePasskeyWrapKey(prf, userId, credentialId);
    const envelope = await wrapPrivateKey(keys.rsaPrivateKey, wrapKey, "rsa", userId);
    const back = await unwrapPrivateKey(envelope, await derivePasskeyWrapKey(prf, userId, credentialId), "rsa", userId);
    expect(back.algorithm.name).toBe("RSA-PSS");
    const otherPrf = new Uint8Array(prf);
    otherPrf[0] ^= 1;
    for (const wrong of [
      derivePasskeyWrapKey(otherPrf, userId, credentialId),
      derivePasskeyWrapKey(prf, "bob123456789012", credentialId),
      derivePasskeyWrapKey(prf, userId, randomBytes(32).toString("base64url")),
    ]) {
      await expectCryptoError(unwrapPrivateKey(envelope, await wrong, "rsa", userId), "unwrapPrivateKey: authentication failed");
    }
  });

  it("refuses a PRF output that is not 32 bytes, a missing user or a credential id that is not base64url", async () => {
    await expectCryptoError(
      derivePasskeyWrapKey(new Uint8Array(16), userId, credentialId),
      "derivePasskeyWrapKey: the PRF output must be 32 bytes",
    );
    await expectCryptoError(derivePasskeyWrapKey(prf, "", credentialId), "derivePasskeyWrapKey: userId is required");
    await expectCryptoError(derivePasskeyWrapKey(prf, userId, "not base64url!"), "derivePasskeyWrapKey: credentialId must be base64url");
  });
});
