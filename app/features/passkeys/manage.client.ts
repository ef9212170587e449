import {
  bufferToBase64URLString,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { derivePasskeyWrapKey, wrapPrivateKey, type KeyBundle } from "~/crypto";
import { api } from "~/lib/api.client";
import { deviceKeys } from "~/lib/device-keys.client";
import { KeysMissingError } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { PasskeyListing } from "~/features/passkeys/types";
import { ceremony, inProductWords, prfEnabled, prfOutput, withoutExtensionResults, withPrf } from "~/features/passkeys/webauthn.client";

export const listPasskeys = () => inProductWords(() => api<{ passkeys: PasskeyListing[] }>("/api/passkeys")).then((r) => r.passkeys);

export const removePasskey = (id: string) => inProductWords(() => api(`/api/passkeys/${encodeURIComponent(id)}/delete`, {}));

/**
 * Adds a passkey to the account. Where the authenticator has PRF, the identity keys of this device are
 * wrapped a third time under a key from its PRF output (ADR 28), so the passkey alone opens them on a
 * new device; the output itself never leaves the browser.
 */
export async function addPasskey(user: SessionUser, name: string): Promise<PasskeyListing> {
  const keys = await deviceKeys(user.id);
  if (!keys) throw new KeysMissingError();
  const { options, answer } = await ceremony(async () => {
    const { options } = await api<{ options: PublicKeyCredentialCreationOptionsJSON }>("/api/passkeys/options", {});
    return { options, answer: await startRegistration({ optionsJSON: withPrf(options) }) };
  });
  let prf = prfOutput(answer.clientExtensionResults);
  if (!prf && prfEnabled(answer.clientExtensionResults)) prf = await prfOfNewPasskey(options.rp.id ?? location.hostname, answer.rawId);
  try {
    const wrapped = prf ? await wrapForPasskey(keys, prf, user.id, answer.id) : { ecdh: "", rsa: "" };
    const { passkey } = await inProductWords(() =>
      api<{ passkey: PasskeyListing }>("/api/passkeys", {
        response: withoutExtensionResults(answer),
        name,
        wrappedEcdhPrivateKey: wrapped.ecdh,
        wrappedRsaPrivateKey: wrapped.rsa,
      }),
    );
    return passkey;
  } finally {
    prf?.fill(0);
  }
}

async function wrapForPasskey(keys: KeyBundle, prf: Uint8Array, userId: string, credentialId: string) {
  const wrapKey = await derivePasskeyWrapKey(prf, userId, credentialId);
  const [ecdh, rsa] = await Promise.all([
    wrapPrivateKey(keys.ecdhPrivateKey, wrapKey, "ecdh", userId),
    wrapPrivateKey(keys.rsaPrivateKey, wrapKey, "rsa", userId),
  ]);
  return { ecdh, rsa };
}

/**
 * An authenticator that supports PRF but answers it only when asked to sign in: asked here, at once,
 * with a challenge of the page's own (the answer goes nowhere; only its PRF output is used). Null when
 * the person declines: the passkey then signs in only.
 */
async function prfOfNewPasskey(rpId: string, credentialId: string): Promise<Uint8Array | null> {
  try {
    const answer = await startAuthentication({
      optionsJSON: withPrf<PublicKeyCredentialRequestOptionsJSON>({
        challenge: bufferToBase64URLString(crypto.getRandomValues(new Uint8Array(32)).buffer),
        rpId,
        allowCredentials: [{ id: credentialId, type: "public-key" }],
        userVerification: "required",
      }),
    });
    return prfOutput(answer.clientExtensionResults);
  } catch {
    return null;
  }
}
