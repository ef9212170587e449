import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import { loadSessionUser } from "~/features/auth/users.server";
import { agentHeaders } from "~/features/devices/devices.server";
import { rememberDevice } from "~/features/auth/device.server";
import type { LinkState, PendingLink, StartedLink } from "~/features/device-link/types";
import { callHook, readHook } from "~/server/hooks.server";
import { pbErrorMessage, pbStatus, pocketbase } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";
import { fail } from "~/server/responses.server";
import { commitAuth } from "~/server/session.server";
import { sessionChangeHeaders } from "~/server/csrf.server";

// The device-link routes on the web server's side (pb_hooks/device_link.pb.js, ADR 0059): PocketBase
// keeps the requests and decides every answer; a request that signs in gets the session a password
// sign-in gets here.

const FALLBACK = "The request could not be sent. Please try again.";

/** Starts a request: signed out for the account `identity` names, or signed in (`token`) for its keys. */
export async function startLink(
  request: Request,
  context: AppLoadContext,
  input: { identity?: string; deviceKey: string; token?: string },
): Promise<StartedLink> {
  if (!input.token && !input.identity) fail(400, "Enter your username or email.");
  const pb = pocketbase(input.token, context);
  try {
    return await pb.send<StartedLink>("/api/chat/device-links", {
      method: "POST",
      body: input.token ? { device_key: input.deviceKey } : { identity: input.identity, device_key: input.deviceKey },
      headers: agentHeaders(request),
    });
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 429) fail(429, pbErrorMessage(error) ?? "Too many requests. Please wait a moment.");
    if (status >= 400 && status < 500) fail(status, pbErrorMessage(error) ?? FALLBACK);
    fail(502, FALLBACK);
  }
}

type PollAnswer = {
  state?: string;
  approver_key?: string;
  sealed?: string;
  token?: string;
  record?: { id: string };
  meta?: { state?: string; sealed?: string; approver_key?: string };
};

/**
 * The new device asks how its request stands. Approved (once): the keys sealed to it, and for a
 * sign-in the session (cookie, CSRF token, this device remembered) in `headers`.
 */
export async function pollLink(
  request: Request,
  context: AppLoadContext,
  input: { id: string; secret: string; token?: string },
): Promise<{ answer: LinkState; headers?: Headers }> {
  const pb = pocketbase(input.token, context);
  const answer = await callHook<PollAnswer>(
    pb,
    "/api/chat/device-links/poll",
    { id: input.id, secret: input.secret },
    "The request could not be checked. Please try again.",
    {},
    agentHeaders(request),
  );
  if (answer.token && answer.record && answer.meta?.state === "approved") {
    pb.authStore.save(answer.token, null);
    const user = await loadSessionUser(pb, answer.record.id);
    if (!user) fail(502, "Sign in failed");
    const headers = await sessionChangeHeaders(request, await commitAuth(request, answer.token, user.id), answer.token);
    headers.append("Set-Cookie", await rememberDevice(request, user.email));
    return {
      answer: { state: "approved", sealed: answer.meta.sealed ?? "", approverKey: answer.meta.approver_key ?? "", user },
      headers,
    };
  }
  if (answer.state === "approved") {
    return { answer: { state: "approved", sealed: answer.sealed ?? "", approverKey: answer.approver_key ?? "", user: null } };
  }
  if (answer.state === "pending") return { answer: { state: "pending", approverKey: answer.approver_key ?? "" } };
  return { answer: { state: answer.state === "denied" ? "denied" : "expired" } };
}

export const cancelLink = (context: AppLoadContext, input: { id: string; secret: string; token?: string }) =>
  callHook<unknown>(pocketbase(input.token, context), "/api/chat/device-links/cancel", { id: input.id, secret: input.secret }, FALLBACK);

type PendingRecord = { id: string; device_key: string; approver_key: string; agent: string; expires: string };

/** The signed-in account's pending requests. */
export async function listPending(pb: PocketBase): Promise<PendingLink[]> {
  const { requests } = await readHook<{ requests: PendingRecord[] }>(pb, "/api/chat/device-links", "Requests could not be read.");
  return requests.map((r) => ({ id: r.id, deviceKey: r.device_key, approverKey: r.approver_key, agent: r.agent, expires: r.expires }));
}

/** Claim, release, approve or deny one of the account's own requests. */
export function answerLink(
  pb: PocketBase,
  id: string,
  op: "claim" | "release" | "approve" | "deny",
  body: { approverKey?: string; sealed?: string },
) {
  const payload: Record<string, string> = {};
  if (body.approverKey) payload.approver_key = body.approverKey;
  if (body.sealed) payload.sealed = body.sealed;
  return callHook<Record<string, unknown>>(
    pb,
    `/api/chat/device-links/${id}/${op}`,
    payload,
    "The request could not be answered. Please try again.",
  );
}
