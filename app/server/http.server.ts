import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { BodyTooLargeError, readBodyBytes, unacceptableJson } from "./body.server";
import { pocketbase } from "./pocketbase.server";
import { sessionUser } from "./session.server";
import { validCsrf } from "./csrf.server";
import { requireLiveSession } from "./session-check.server";
import type { RequestLike } from "./request-like.server";

export const MAX_JSON_BYTES = 256 * 1024;

import { fail, jsonResponse } from "~/server/responses.server";
import { issueWords } from "~/server/issue-words.server";

export { fail, jsonResponse };

/**
 * Every state-changing request carries the token from the page (header X-CSRF-Token) that must match
 * the signed HttpOnly cookie and be issued for the current session (csrf.server.ts). Cross-site pages
 * can neither read the token nor set the header.
 */
export async function requireCsrf(request: Pick<RequestLike, "headers">) {
  if (!(await validCsrf(request))) fail(403, "Your session has expired. Please reload the page.");
}

/** Reads a bounded JSON body and validates it; any problem is a 400 with a readable message. */
export async function readJson<S extends z.ZodTypeAny>(request: RequestLike, schema: S): Promise<z.infer<S>> {
  let text: string;
  try {
    text = new TextDecoder().decode(await readBodyBytes(request, MAX_JSON_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLargeError) fail(413, "Request is too large.");
    fail(400, "The request body could not be read.");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(400, "Request body must be JSON.");
  }
  const problem = unacceptableJson(body);
  if (problem) fail(400, problem);
  const parsed = schema.safeParse(body);
  if (!parsed.success) fail(400, issueWords(parsed.error.issues[0]));
  return parsed.data;
}

/** A POST with a valid CSRF token, from a signed-in user: the PocketBase client carries their token. */
export async function requireUser(request: Pick<RequestLike, "headers">, context: AppLoadContext, unauthenticated = "Not authenticated") {
  const { token, userId } = await requireSessionCookie(request, unauthenticated);
  await requireLiveSession(token, context);
  return { pb: pocketbase(token, context), token, userId };
}

/**
 * The signed-in user of the session cookie, without asking PocketBase whether the session is still
 * live: only for a request PocketBase refuses to a signed-out token, whose refusal is followed by
 * requireLiveSessionAfterRefusal (session-check.server.ts).
 */
export async function requireSessionCookie(request: Pick<RequestLike, "headers">, unauthenticated = "Not authenticated") {
  const { token, userId } = await sessionUser(request);
  if (!token || !userId) fail(401, unauthenticated);
  return { token, userId };
}

export function requirePost(request: Pick<RequestLike, "method">) {
  if (request.method !== "POST") fail(405, "Method not allowed.");
}
