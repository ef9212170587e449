import PocketBase, { ClientResponseError } from "pocketbase";
import { env } from "./env.server";
import { readSession } from "./session.server";

/** A fresh PocketBase client for one request, carrying the caller's own token (if any). */
export function pocketbase(token?: string) {
  const pb = new PocketBase(env().PB_URL);
  pb.autoCancellation(false);
  if (token) pb.authStore.save(token, null);
  return pb;
}

export async function pocketbaseFor(request: Request) {
  const session = await readSession(request);
  const token = session.get("token");
  const userId = session.get("userId");
  return { pb: pocketbase(token), token, userId };
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
