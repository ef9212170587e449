import type { AppLoadContext } from "@remix-run/node";
import type PocketBase from "pocketbase";
import type { DeviceSession } from "~/features/devices/types";
import { describeUserAgent } from "~/lib/user-agent";
import { failOnOutage, failOnTooMany } from "~/server/outage.server";
import { pbStatus } from "~/server/pocketbase.server";
import { fail } from "~/server/responses.server";
import { requireLiveSessionAfterRefusal } from "~/server/session-check.server";

/**
 * The header that tells PocketBase which browser and system a new session is on ("Chrome on Linux",
 * never the user agent itself; pocketbase/devices.go records it): every call that signs in, signs up or
 * renews a session sends it.
 */
export function agentHeaders(request: { headers: { get(name: string): string | null } }): Record<string, string> {
  return { "X-ChatCrypt-Agent": describeUserAgent(request.headers.get("User-Agent") ?? "") };
}

/** A refused call: 401 when the session itself ended (signed out elsewhere), else the outage or the fallback. */
async function failed(error: unknown, caller: { token: string; context?: AppLoadContext }, fallback: string): Promise<never> {
  failOnOutage(error);
  if (pbStatus(error) === 401) await requireLiveSessionAfterRefusal(caller.token, caller.context);
  failOnTooMany(error);
  fail(502, fallback);
}

/** The caller's signed-in sessions, their own first (asks PocketBase every time: it also tells a page its session ended). */
export async function listSessions(pb: PocketBase, caller: { token: string; context?: AppLoadContext }): Promise<DeviceSession[]> {
  try {
    const answer = await pb.send<{ sessions: DeviceSession[] }>("/api/chat/sessions", { method: "GET" });
    return answer.sessions;
  } catch (error) {
    return failed(error, caller, "The devices could not be listed. Please try again.");
  }
}

/** Signs another of the caller's sessions out: its token is refused from now on and its live streams close. */
export async function signOutSession(pb: PocketBase, id: string, caller: { token: string; context?: AppLoadContext }) {
  try {
    await pb.send(`/api/chat/sessions/${encodeURIComponent(id)}/revoke`, { method: "POST" });
  } catch (error) {
    const status = pbStatus(error);
    if (status === 404) fail(404, "This device is not signed in.");
    if (status === 400) fail(400, "This is the device you are using: use Sign out instead.");
    await failed(error, caller, "The device could not be signed out. Please try again.");
  }
}
