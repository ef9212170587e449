import { createPublicKey, type JsonWebKey } from "node:crypto";
import { isIP } from "node:net";
import { verifyRegistrationResponse, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { cose, decodeCredentialPublicKey, isoBase64URL } from "@simplewebauthn/server/helpers";
import { env } from "~/server/env.server";
import { fail } from "~/server/http.server";
import { NOT_AT_AN_IP } from "~/features/passkeys/where";

// The web app's side of WebAuthn (docs/decisions/0028-passkeys.md): whom passkeys are for (the
// relying party: the web app's origin and host), and a new passkey's attestation, checked with
// @simplewebauthn/server. Sign-in assertions are checked by our PocketBase (pocketbase/passkeys.go).

/** COSE algorithms offered to authenticators: Ed25519, ES256, RS256 (what PocketBase verifies). */
export const PASSKEY_ALGORITHMS = [cose.COSEALG.EdDSA, cose.COSEALG.ES256, cose.COSEALG.RS256];
/** How long the browser waits for the authenticator (PocketBase keeps a challenge 5 minutes). */
export const PASSKEY_TIMEOUT_MS = 240_000;

export interface RelyingParty {
  origin: string;
  rpID: string;
}

/**
 * The web app's origin (APP_URL when set, otherwise the request's own, which server.mjs reads through
 * TRUST_PROXY) and its host, the RP ID. Browsers refuse an IP address as an RP ID.
 */
export function relyingParty(request: Pick<Request, "url">): RelyingParty {
  const origin = new URL(env().APP_URL ?? request.url).origin;
  const rpID = new URL(origin).hostname;
  if (isIP(rpID.replace(/^\[|\]$/g, ""))) {
    fail(409, NOT_AT_AN_IP);
  }
  return { origin, rpID };
}

/** The credential's public key as SubjectPublicKeyInfo (base64url), from its COSE form. */
export function coseToSpki(coseKey: Uint8Array<ArrayBuffer>): string {
  const key = decodeCredentialPublicKey(coseKey);
  const b64 = (bytes: Uint8Array<ArrayBuffer> | undefined) => (bytes ? isoBase64URL.fromBuffer(bytes) : "");
  let jwk: JsonWebKey;
  if (cose.isCOSEPublicKeyEC2(key) && key.get(cose.COSEKEYS.crv) === cose.COSECRV.P256) {
    jwk = { kty: "EC", crv: "P-256", x: b64(key.get(cose.COSEKEYS.x)), y: b64(key.get(cose.COSEKEYS.y)) };
  } else if (cose.isCOSEPublicKeyOKP(key) && key.get(cose.COSEKEYS.crv) === cose.COSECRV.ED25519) {
    jwk = { kty: "OKP", crv: "Ed25519", x: b64(key.get(cose.COSEKEYS.x)) };
  } else if (cose.isCOSEPublicKeyRSA(key)) {
    jwk = { kty: "RSA", n: b64(key.get(cose.COSEKEYS.n)), e: b64(key.get(cose.COSEKEYS.e)) };
  } else {
    fail(400, "This passkey uses a kind of key ChatCrypt does not accept.");
  }
  return createPublicKey({ key: jwk, format: "jwk" }).export({ type: "spki", format: "der" }).toString("base64url");
}

export interface VerifiedPasskey {
  challenge: string;
  credentialId: string;
  publicKey: string;
  algorithm: number;
  counter: number;
  transports: string[];
}

/**
 * Checks a new passkey's attestation for this web app (origin, RP ID, user present and verified, an
 * offered algorithm). The challenge it answers is returned for PocketBase, which takes it (once, for
 * this user) when it stores the passkey.
 */
export async function verifyNewPasskey(response: RegistrationResponseJSON, party: RelyingParty): Promise<VerifiedPasskey> {
  let challenge = "";
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: (answered) => {
        challenge = answered;
        return /^[A-Za-z0-9_-]{43}$/.test(answered);
      },
      expectedOrigin: party.origin,
      expectedRPID: party.rpID,
      requireUserVerification: true,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
  } catch {
    fail(400, "The passkey could not be verified. Try again.");
  }
  if (!verified.verified) fail(400, "The passkey could not be verified. Try again.");
  const { credential } = verified.registrationInfo;
  const algorithm = decodeCredentialPublicKey(credential.publicKey).get(cose.COSEKEYS.alg);
  if (algorithm === undefined || !PASSKEY_ALGORITHMS.includes(algorithm))
    fail(400, "This passkey uses a kind of key ChatCrypt does not accept.");
  return {
    challenge,
    credentialId: credential.id,
    publicKey: coseToSpki(credential.publicKey),
    algorithm,
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
}
