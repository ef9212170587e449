import { PBKDF2_ITERATIONS } from "~/crypto";

/**
 * The PBKDF2 count to derive a channel's key with. The count this device remembered at create or join
 * (or that the keyring holds) wins; a count from the server is never accepted below PBKDF2_ITERATIONS,
 * so a malicious server cannot make a channel key cheap to brute-force.
 */
export function channelIterations(fromServer: unknown, remembered: number | null): number {
  if (remembered !== null && Number.isSafeInteger(remembered) && remembered >= PBKDF2_ITERATIONS) return remembered;
  const server = typeof fromServer === "number" && Number.isSafeInteger(fromServer) ? fromServer : 0;
  return Math.max(PBKDF2_ITERATIONS, server);
}
