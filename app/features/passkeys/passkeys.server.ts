import type PocketBase from "pocketbase";
import type { AppLoadContext } from "@remix-run/node";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { fail } from "~/server/http.server";
import { failOnOutage } from "~/server/outage.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { loadSessionUser } from "~/features/auth/users.server";
import type { PasskeyListing, PasskeyUnlock } from "~/features/passkeys/types";
import { PASSKEY_ALGORITHMS, PASSKEY_TIMEOUT_MS, verifyNewPasskey, type RelyingParty } from "~/features/passkeys/webauthn.server";

// Passkeys through PocketBase (pocketbase/passkeys.go): its challenges, the owner's list, a new
// passkey, and the sign-in, whose assertion PocketBase verifies before it answers a session token.

type PasskeyRecord = { id: string; name: string; created: string; last_used: string; wrapped_ecdh_private_key: string };

/** A PocketBase failure as the page should read it: its own words for a 4xx, ours otherwise. */
function failFrom(error: unknown, fallback: string): never {
  failOnOutage(error);
  const status = pbStatus(error);
  if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? fallback);
  fail(502, fallback);
}

async function challenge(pb: PocketBase, purpose: "register" | "signin"): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const { challenge: value } = await pb.send<{ challenge: string }>("/api/chat/passkeys/challenge", {
      method: "POST",
      body: { purpose },
    });
    return isoBase64URL.toBuffer(value);
  } catch (error) {
    failFrom(error, "Passkeys are not available right now. Please try again.");
  }
}

/** Options for the browser's passkey sign-in: any passkey of this site (discoverable), verified. */
export async function signInOptions(party: RelyingParty, context: AppLoadContext) {
  return generateAuthenticationOptions({
    rpID: party.rpID,
    challenge: await challenge(pocketbase(undefined, context), "signin"),
    userVerification: "required",
    timeout: PASSKEY_TIMEOUT_MS,
  });
}

/** Options for adding a passkey: discoverable, verified, none of the account's passkeys again. */
export async function registrationOptions(party: RelyingParty, pb: PocketBase, userId: string) {
  const [user, existing, value] = await Promise.all([
    loadSessionUser(pb, userId).catch((error) => failFrom(error, "Your account could not be read. Please try again.")),
    pb
      .collection("passkeys")
      .getFullList<{ credential_id: string; transports: string[] | null }>({ fields: "credential_id,transports" })
      .catch((error) => failFrom(error, "Your passkeys could not be read. Please try again.")),
    challenge(pb, "register"),
  ]);
  if (!user) fail(401, "Not authenticated");
  return generateRegistrationOptions({
    rpName: "ChatCrypt",
    rpID: party.rpID,
    userName: user.email,
    userDisplayName: user.username,
    userID: isoUint8Array.fromUTF8String(user.id),
    challenge: value,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports ?? undefined })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    timeout: PASSKEY_TIMEOUT_MS,
  });
}

const toListing = (r: PasskeyRecord): PasskeyListing => ({
  id: r.id,
  name: r.name,
  created: r.created,
  lastUsed: r.last_used,
  unlocks: r.wrapped_ecdh_private_key !== "",
});

/** The caller's own passkeys (PocketBase's rules show nobody else's). */
export async function listPasskeys(pb: PocketBase): Promise<PasskeyListing[]> {
  try {
    const records = await pb
      .collection("passkeys")
      .getFullList<PasskeyRecord>({ sort: "created", fields: "id,name,created,last_used,wrapped_ecdh_private_key" });
    return records.map(toListing);
  } catch (error) {
    failFrom(error, "Failed to load passkeys. Please try again.");
  }
}

/** Stores a passkey whose attestation checks out, with its PRF-wrapped keys when it has them. */
export async function addPasskey(
  pb: PocketBase,
  party: RelyingParty,
  input: { response: RegistrationResponseJSON; name: string; wrappedEcdhPrivateKey: string; wrappedRsaPrivateKey: string },
): Promise<PasskeyListing> {
  const passkey = await verifyNewPasskey(input.response, party);
  try {
    const saved = await pb.send<{ id: string; name: string; created: string; last_used: string; unlocks: boolean }>("/api/chat/passkeys", {
      method: "POST",
      body: {
        challenge: passkey.challenge,
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        algorithm: passkey.algorithm,
        counter: passkey.counter,
        transports: passkey.transports,
        name: input.name,
        rp_id: party.rpID,
        wrapped_ecdh_private_key: input.wrappedEcdhPrivateKey,
        wrapped_rsa_private_key: input.wrappedRsaPrivateKey,
      },
    });
    return { id: saved.id, name: saved.name, created: saved.created, lastUsed: saved.last_used, unlocks: saved.unlocks };
  } catch (error) {
    failFrom(error, "The passkey could not be saved. Please try again.");
  }
}

export async function removePasskey(pb: PocketBase, id: string) {
  try {
    await pb.collection("passkeys").delete(id);
  } catch (error) {
    if (pbStatus(error) === 404) fail(404, "Passkey not found.");
    failFrom(error, "The passkey could not be removed. Please try again.");
  }
}

/**
 * A passkey sign-in: PocketBase checks the assertion (its own challenge, once; origin, RP ID, user
 * verified, signature, counter) and answers a session token as a password sign-in would.
 */
export async function passkeySignIn(
  response: AuthenticationResponseJSON,
  party: RelyingParty,
  context: AppLoadContext,
  /** Extra headers for PocketBase: the browser and system of the new session (devices.server.ts agentHeaders). */
  headers: Record<string, string> = {},
): Promise<{ token: string; userId: string; pb: PocketBase; unlock: PasskeyUnlock }> {
  const pb = pocketbase(undefined, context);
  let auth: {
    token: string;
    record: { id: string };
    meta?: { passkey?: { id: string; wrapped_ecdh_private_key: string; wrapped_rsa_private_key: string } };
  };
  try {
    auth = await pb.send("/api/chat/passkeys/signin", {
      method: "POST",
      body: {
        credential_id: response.id,
        client_data_json: response.response.clientDataJSON,
        authenticator_data: response.response.authenticatorData,
        signature: response.response.signature,
        user_handle: response.response.userHandle ?? "",
        origin: party.origin,
        rp_id: party.rpID,
      },
      headers,
    });
  } catch (error) {
    failFrom(error, "Sign in failed");
  }
  pb.authStore.save(auth.token, null);
  const passkey = auth.meta?.passkey;
  return {
    token: auth.token,
    userId: auth.record.id,
    pb,
    unlock: {
      credentialId: response.id,
      wrappedEcdhPrivateKey: passkey?.wrapped_ecdh_private_key ?? "",
      wrappedRsaPrivateKey: passkey?.wrapped_rsa_private_key ?? "",
    },
  };
}
