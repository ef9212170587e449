import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { commitCsrfToken, csrfValid } from "./csrf.server";
import { pocketbaseFor } from "./pocketbase.server";

export const csrf = { commitToken: commitCsrfToken };

export const MAX_JSON_BYTES = 256 * 1024;

/**
 * What the request helpers below read of a request: a Fetch Request has it, and so does the adapter
 * over a Node request in app/server/fast-routes.server.ts.
 */
export interface RequestLike {
  method: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** Throws a JSON error response: `{ message }` with the given status. */
export function fail(status: number, message: string): never {
  throw jsonResponse({ message }, status);
}

export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit) {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/**
 * Every state-changing request carries the token from the page (header X-CSRF-Token) that must match
 * the signed HttpOnly cookie. Cross-site pages can neither read the token nor set the header.
 */
export async function requireCsrf(request: RequestLike) {
  if (!(await csrfValid(request.headers.get("Cookie"), request.headers.get("x-csrf-token")))) {
    fail(403, "Your session has expired. Please reload the page.");
  }
}

/** Reads a bounded JSON body and validates it; any problem is a 400 with a readable message. */
export async function readJson<S extends z.ZodTypeAny>(request: RequestLike, schema: S): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BYTES) fail(413, "Request is too large.");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_JSON_BYTES) fail(413, "Request is too large.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(400, "Request body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(400, issue?.message && issue.message !== "Required" ? issue.message : `Invalid field: ${issue?.path.join(".") || "body"}`);
  }
  return parsed.data;
}

/** A POST with a valid CSRF token, from a signed-in user: the PocketBase client carries their token. */
export async function requireUser(request: RequestLike, context: AppLoadContext, unauthenticated = "Not authenticated") {
  const { pb, token, userId } = await pocketbaseFor(request, context);
  if (!token || !userId) fail(401, unauthenticated);
  return { pb, token, userId };
}

export function requirePost(request: RequestLike) {
  if (request.method !== "POST") fail(405, "Method not allowed.");
}
