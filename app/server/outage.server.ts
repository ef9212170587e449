import { fail } from "~/server/responses.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";

// Failures that are nobody's fault in the request: PocketBase away, or its disk full. Each gets its
// own words, so a person is never told something wrong (such as "You are not a member").
export const UNREACHABLE_MESSAGE = "The server is unreachable right now. Please try again in a moment.";
export const DISK_FULL_MESSAGE = "The server's disk is full. Please tell the administrator.";

/** Throws the matching 503 or 507 answer when a PocketBase call failed for one of those reasons. */
export function failOnOutage(error: unknown): void {
  const status = pbStatus(error);
  if (status === 507) fail(507, DISK_FULL_MESSAGE);
  // Status 0: no answer at all. (A 502 or 503 from PocketBase itself is an answer: its own words stand.)
  if (status === 0 && !(error as { isAbort?: boolean } | undefined)?.isAbort) fail(503, UNREACHABLE_MESSAGE);
}

export const TOO_MANY_MESSAGE = "Too many requests. Please wait a moment.";

/**
 * Throws a 429 with PocketBase's words (whose budget ran out: this device's or this account's,
 * pocketbase/account_limits.go) when it refused the call for too many requests: never a 502.
 */
export function failOnTooMany(error: unknown): void {
  if (pbStatus(error) === 429) fail(429, pbErrorMessage(error) ?? TOO_MANY_MESSAGE);
}

/** Field errors PocketBase reported for a rejected write (its 400 "validation" answer), by field name. */
export function fieldErrors(error: unknown): Record<string, { code?: string; message?: string }> {
  const data = (error as { response?: { data?: unknown } } | undefined)?.response?.data;
  return data && typeof data === "object" ? (data as Record<string, { code?: string; message?: string }>) : {};
}
