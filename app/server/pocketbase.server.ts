import type { AppLoadContext } from "@remix-run/node";
import PocketBase, { ClientResponseError } from "pocketbase";
import { forwardedFor } from "./client-address.server";
import { env } from "./env.server";
import { pbFetch } from "./pb-fetch.server";
import { sessionUser } from "./session.server";
import { noteTooMany, tooManyWords } from "./too-many.server";

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
  // a refusal for too many requests is the request's answer, whatever the route makes of it
  pb.afterSend = (response, data) => {
    noteTooMany(context, response.status, data);
    return data;
  };
  return pb;
}

/**
 * One JSON POST to PocketBase as the caller, without the SDK's per-request client and option
 * handling (for the message send, the request every page makes most): resolves with the answer's
 * JSON, or rejects with the ClientResponseError the SDK would throw for the same answer (status 0 when
 * PocketBase did not answer), so callers read failures the same way.
 */
export async function pocketbasePost(path: string, body: unknown, caller: { token: string; context?: AppLoadContext }): Promise<unknown> {
  let response: Awaited<ReturnType<typeof pbFetch>>;
  try {
    response = await pbFetch(`${env().PB_URL.replace(/\/+$/, "")}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: caller.token, ...forwardedFor(caller.context?.clientIp) },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ClientResponseError(error);
  }
  let data: unknown = {};
  try {
    data = await response.json();
  } catch {
    // an answer without JSON reads as {} (as in the SDK)
  }
  noteTooMany(caller.context, response.status, data);
  if (response.status >= 400) throw new ClientResponseError({ url: response.url, status: response.status, data });
  return data;
}

export async function pocketbaseFor(request: { headers: { get(name: string): string | null } }, context?: AppLoadContext) {
  const { token, userId } = await sessionUser(request);
  return { pb: pocketbase(token, context), token, userId };
}

/** The message a PocketBase error carries for the user, or undefined when it has none worth showing. */
export function pbErrorMessage(error: unknown): string | undefined {
  if (error instanceof ClientResponseError) {
    if (error.status === 0) return undefined;
    if (error.status === 429) return tooManyWords(error.response);
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

/**
 * Records of a collection by id, asked 100 ids at a time (a filter of more `id = …` terms grows past
 * what PocketBase parses quickly); `where` narrows every request further.
 */
export async function listByIds<R>(
  pb: PocketBase,
  collection: string,
  ids: readonly string[],
  options: { fields: string; where?: string; params?: Record<string, unknown>; by?: "id" | "target" },
): Promise<R[]> {
  const out: R[] = [];
  const field = options.by ?? "id";
  for (let start = 0; start < ids.length; start += 100) {
    const chunk = ids.slice(start, start + 100);
    const byId = chunk.map((_, i) => `${field} = {:id${i}}`).join(" || ");
    const params = { ...options.params, ...Object.fromEntries(chunk.map((id, i) => [`id${i}`, id])) };
    const filter = options.where ? `${options.where} && (${byId})` : byId;
    out.push(...(await pb.collection(collection).getFullList<R>({ filter: pb.filter(filter, params), fields: options.fields })));
  }
  return out;
}
