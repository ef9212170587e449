import { browserSupportsWebAuthn, WebAuthnError, type AuthenticationExtensionsClientOutputs } from "@simplewebauthn/browser";
import { PASSKEY_PRF_SALT } from "~/crypto";
import { ApiError } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";

// What the page adds to @simplewebauthn/browser: the PRF extension asked for with our salt, its
// output read (and kept in the browser: every answer leaves without its extension results), and the
// product's words for a ceremony that fails.

const PRF_INPUT = { prf: { eval: { first: PASSKEY_PRF_SALT } } };

/** The options with the PRF extension asked for (the browser takes the salt as bytes). */
export function withPrf<T extends { extensions?: object }>(options: T): T {
  return { ...options, extensions: { ...options.extensions, ...PRF_INPUT } };
}

type PrfOutputs = AuthenticationExtensionsClientOutputs & { prf?: { enabled?: boolean; results?: { first?: BufferSource } } };

/** The authenticator's PRF output for our salt (a copy, 32 bytes), or null when it gave none. */
export function prfOutput(results: AuthenticationExtensionsClientOutputs): Uint8Array | null {
  const first = (results as PrfOutputs).prf?.results?.first;
  if (!first) return null;
  const bytes = ArrayBuffer.isView(first) ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength) : new Uint8Array(first);
  return bytes.length === 32 ? new Uint8Array(bytes) : null;
}

/** True when a new passkey says it supports PRF (some answer the output only at the next sign-in). */
export const prfEnabled = (results: AuthenticationExtensionsClientOutputs) => (results as PrfOutputs).prf?.enabled === true;

/** The answer as it goes to the server: without its client extension results (the PRF output). */
export function withoutExtensionResults<T extends { clientExtensionResults: AuthenticationExtensionsClientOutputs }>(answer: T): T {
  return { ...answer, clientExtensionResults: {} };
}

/** Runs a WebAuthn ceremony (or a call around one); a failure becomes a ChatError with the product's words. */
export async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  if (!browserSupportsWebAuthn()) throw new ChatError("This browser does not support passkeys.");
  return inProductWords(run);
}

/** Runs a call; a failure becomes a ChatError: the server's own message, or the product's words. */
export async function inProductWords<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new ChatError(ceremonyMessage(error));
  }
}

function ceremonyMessage(error: unknown): string {
  if (error instanceof ChatError || (error instanceof ApiError && error.message)) return error.message;
  const code = error instanceof WebAuthnError ? error.code : "";
  const name = error instanceof Error ? error.name : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "This passkey is already added to your account.";
  if (code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID" || name === "SecurityError")
    return "Passkeys do not work at this address. Open ChatCrypt at its usual address.";
  if (code === "ERROR_CEREMONY_ABORTED" || name === "NotAllowedError" || name === "AbortError")
    return "The passkey request was cancelled or timed out.";
  return "The passkey request failed. Please try again.";
}
