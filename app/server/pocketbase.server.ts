import type { AppLoadContext } from "@remix-run/node";
import PocketBase, { ClientResponseError } from "pocketbase";
import { forwardedFor } from "./client-address.server";
import { env } from "./env.server";
import { pbFetch } from "./pb-fetch.server";
import { readSession } from "./session.server";

/**
 * A fresh PocketBase client for one request, carrying the caller's own token (if any) and their address
 * in X-Forwarded-For, so PocketBase's rate limits apply per person rather than to the web server.
 */
export function pocketbase(token?: string, context?: AppLoadContext) {
  const pb = new PocketBase(env().PB_URL);
  pb.autoCancellation(false);
  if (token) pb.authStore.save(token, null);
  const forwarded = forwardedFor(context?.clientIp);
  pb.beforeSend = (url, options) => {
    options.fetch = pbFetch as unknown as typeof fetch;
    options.headers = { ...(options.headers as Record<string, string>), ...forwarded };
    return { url, options };
  };
  return pb;
}

export async function pocketbaseFor(request: { headers: { get(name: string): string | null } }, context?: AppLoadContext) {
  const session = await readSession(request);
  const token = session.get("token");
  const userId = session.get("userId");
  return { pb: pocketbase(token, context), token, userId };
}

/** The message a PocketBase error carries for the user, or undefined when it has none worth showing. */
export function pbErrorMessage(error: unknown): string | undefined {
  if (error instanceof ClientResponseError) {
    if (error.status === 0) return undefined;
    const data = error.response as { message?: unknown; data?: Record<string, { message?: string }> };
    const fieldMessage = data?.data && Object.values(data.data).find((f) => f?.message)?.message;
    if (typeof fieldMessage === "string" && fieldMessage) return fieldMessage;
    if (typeof data?.message === "string" && data.message) return data.message;
  }
  return undefined;
}

export function pbStatus(error: unknown): number {
  return error instanceof ClientResponseError ? error.status : 0;
}

export { ClientResponseError };
