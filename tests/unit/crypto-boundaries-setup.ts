/**
 * Shared set-up of the boundary tests (crypto-boundaries-*.test.ts): two key bundles, a channel
 * key, an AES key and one message envelope from alice, made once per test file.
 */
import { beforeAll } from "vitest";
import { decryptMessage, deriveChannelSecrets, encryptMessage, generateKeyBundle, type KeyBundle } from "../../app/crypto";
import { FAST_ITERATIONS } from "./crypto-helpers";

export const channelId = "0b6f2a4e-8f0c-4c1e-9a57-3d2f1e0c9b8a";
export const aliceId = "alice1234567890";

export let alice: KeyBundle;
export let bob: KeyBundle;
export let channelKey: CryptoKey;
export let aesKey: CryptoKey;
export let envelope: string;

/** Makes the keys and the envelope above before the calling test file's tests run. */
export function useBoundaryKeys(): void {
  beforeAll(async () => {
    [alice, bob] = await Promise.all([generateKeyBundle(), generateKeyBundle()]);
    channelKey = (await deriveChannelSecrets("team pw", channelId, FAST_ITERATIONS)).key;
    aesKey = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    envelope = await encryptMessage({ key: channelKey, channelId, senderId: aliceId, plaintext: "hello", signingKey: alice.rsaPrivateKey });
  });
}

export function send(plaintext: string) {
  return encryptMessage({ key: channelKey, channelId, senderId: aliceId, plaintext, signingKey: alice.rsaPrivateKey });
}

export function receive(env: string) {
  return decryptMessage({ key: channelKey, channelId, senderId: aliceId, envelope: env, verifyKey: alice.rsaPublicKey });
}

export function withFields(env: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(env), ...fields });
}
