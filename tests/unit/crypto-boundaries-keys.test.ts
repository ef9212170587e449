/**
 * Part 4: boundaries and malformed input, of keys: wrapped private keys, public keys and stored
 * key bundles.
 */
import * as nodeCrypto from "node:crypto";
import { beforeAll, describe, it } from "vitest";
import {
  deriveAccountSecrets,
  deriveWrapKey,
  exportKeyBundle,
  exportPublicKey,
  importEcdhPublicKey,
  importKeyBundle,
  importRsaPublicKey,
  unwrapPrivateKey,
  wrapPrivateKey,
  type StoredKeyBundle,
} from "../../app/crypto";
import { alice, aliceId, useBoundaryKeys } from "./crypto-boundaries-setup";
import { FAST_ITERATIONS, expectCryptoError } from "./crypto-helpers";

useBoundaryKeys();

describe("malformed wrapped keys", () => {
  let wrapKey: CryptoKey;
  let env: string;
  beforeAll(async () => {
    const { master } = await deriveAccountSecrets("hunter22", "alice@example.com", FAST_ITERATIONS);
    wrapKey = await deriveWrapKey(master, aliceId);
    env = await wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "ecdh", aliceId);
  });

  it.each([
    ["empty", ""],
    ["no separators", "v1"],
    ["two parts", "v1.AAAAAAAAAAAAAAAA"],
    ["four parts", "v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.x"],
    ["unknown prefix", "x1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["bad base64 iv", "v1.AAAAAAAAAAAAAAA!.AAAAAAAAAAAAAAAAAAAAAA"],
    ["bad base64 ct", "v1.AAAAAAAAAAAAAAAA.AAAA+AAAAAAAAAAAAAAAAA"],
    ["short iv", "v1.AAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["ciphertext shorter than a tag", "v1.AAAAAAAAAAAAAAAA.AAAA"],
  ])("%s", async (_name, bad) => {
    await expectCryptoError(unwrapPrivateKey(bad, wrapKey, "ecdh", aliceId), "unwrapPrivateKey: malformed envelope");
  });

  it("unsupported version", async () => {
    await expectCryptoError(
      unwrapPrivateKey(env.replace(/^v1\./, "v2."), wrapKey, "ecdh", aliceId),
      "unwrapPrivateKey: unsupported version",
    );
  });

  it("argument checks", async () => {
    await expectCryptoError(unwrapPrivateKey(env, wrapKey, "dsa" as "ecdh", aliceId), 'unwrapPrivateKey: kind must be "ecdh" or "rsa"');
    await expectCryptoError(unwrapPrivateKey(env, wrapKey, "ecdh", ""), "unwrapPrivateKey: userId is required");
    await expectCryptoError(unwrapPrivateKey(env, alice.rsaPublicKey, "ecdh", aliceId), "unwrapPrivateKey: invalid key");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPrivateKey, wrapKey, "rsa", aliceId), "wrapPrivateKey: not an rsa private key");
    await expectCryptoError(wrapPrivateKey(alice.rsaPrivateKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: not an ecdh private key");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPublicKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: not an ecdh private key");
    const locked = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
    await expectCryptoError(wrapPrivateKey(locked.privateKey, wrapKey, "ecdh", aliceId), "wrapPrivateKey: private key is not extractable");
    await expectCryptoError(wrapPrivateKey(alice.ecdhPrivateKey, alice.rsaPrivateKey, "ecdh", aliceId), "wrapPrivateKey: invalid key");
  });
});

describe("public keys and stored bundles", () => {
  it("importEcdhPublicKey / importRsaPublicKey reject bad input", async () => {
    const rsaSpki = await exportPublicKey(alice.rsaPublicKey);
    const ecdhSpki = await exportPublicKey(alice.ecdhPublicKey);
    await expectCryptoError(importEcdhPublicKey("not base64"), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importEcdhPublicKey(""), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importEcdhPublicKey(rsaSpki), "importEcdhPublicKey: malformed key");
    await expectCryptoError(importRsaPublicKey(ecdhSpki), "importRsaPublicKey: malformed key");
    await expectCryptoError(importRsaPublicKey(rsaSpki.slice(0, -8) + "AAAAAAA="), "importRsaPublicKey: malformed key");
    const p256 = nodeCrypto
      .generateKeyPairSync("ec", { namedCurve: "prime256v1" })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    await expectCryptoError(importEcdhPublicKey(p256), "importEcdhPublicKey: malformed key");
    const rsa1024 = nodeCrypto
      .generateKeyPairSync("rsa", { modulusLength: 1024 })
      .publicKey.export({ type: "spki", format: "der" })
      .toString("base64");
    await expectCryptoError(importRsaPublicKey(rsa1024), "importRsaPublicKey: unsupported key size");
    await expectCryptoError(exportPublicKey(alice.rsaPrivateKey), "exportPublicKey: not a public key");
  });

  it("importKeyBundle rejects malformed stored bundles", async () => {
    const good = await exportKeyBundle(alice);
    const bad: unknown[] = [
      null,
      "string",
      {},
      { ...good, ecdhPrivateKey: undefined },
      { ...good, rsaPrivateKey: "jwk" },
      { ...good, ecdhPublicKey: 5 },
      { ...good, rsaPublicKey: "@@@@" },
      { ...good, ecdhPublicKey: good.rsaPublicKey },
      { ...good, ecdhPrivateKey: { ...good.ecdhPrivateKey, d: undefined } },
    ];
    for (const value of bad) {
      await expectCryptoError(importKeyBundle(value as StoredKeyBundle), "importKeyBundle: malformed bundle");
    }
  });

  it("exportKeyBundle refuses non-bundles and locked private keys", async () => {
    await expectCryptoError(exportKeyBundle({ ...alice, rsaPrivateKey: alice.ecdhPrivateKey }), "exportKeyBundle: not a key bundle");
    const locked = await crypto.subtle.generateKey(
      { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    await expectCryptoError(
      exportKeyBundle({ ...alice, rsaPrivateKey: locked.privateKey, rsaPublicKey: locked.publicKey }),
      "exportKeyBundle: private keys are not extractable",
    );
  });
});
