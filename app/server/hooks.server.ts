import type PocketBase from "pocketbase";
import { fail } from "~/server/responses.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";

/**
 * Calls one of our PocketBase server functions; its 4xx message reaches the page (or the one `messages`
 * gives for that status), anything else becomes `fallback`.
 */
export async function callHook<T>(
  pb: PocketBase,
  path: string,
  body: unknown,
  fallback: string,
  messages: Partial<Record<number, Words>> = {},
  /** Extra headers for PocketBase (the browser and system of a session it may start: devices.server.ts agentHeaders). */
  headers: Record<string, string> = {},
): Promise<T> {
  try {
    return await pb.send<T>(path, { method: "POST", body: body as Record<string, unknown>, headers });
  } catch (error) {
    failFrom(error, fallback, messages);
  }
}

/** A GET of one of our PocketBase server functions, its failures answered as callHook's. */
export async function readHook<T>(pb: PocketBase, path: string, fallback: string): Promise<T> {
  try {
    return await pb.send<T>(path, { method: "GET" });
  } catch (error) {
    failFrom(error, fallback);
  }
}

/** What a status says: fixed words, or words chosen from PocketBase's own (undefined when it gave none). */
type Words = string | ((said: string | undefined) => string);

function failFrom(error: unknown, fallback: string, messages: Partial<Record<number, Words>> = {}): never {
  failOnOutage(error);
  const status = pbStatus(error);
  const given = messages[status];
  const said = pbErrorMessage(error);
  if (status >= 400 && status < 500) fail(status, (typeof given === "function" ? given(said) : given) ?? said ?? fallback);
  fail(502, fallback);
}
