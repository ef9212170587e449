/**
 * Calls on the web server (docs/decisions/0030-calls-livekit.md): who may join a conversation's call
 * (its members, as PocketBase's rules say), the short LiveKit access token they get for it, and
 * whether a call is going on. The LiveKit API secret stays here: browsers get only signed tokens.
 */
import type PocketBase from "pocketbase";
import type { AppLoadContext } from "@remix-run/node";
import { AccessToken, type ParticipantInfo } from "livekit-server-sdk";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbasePost } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";
import { loadProfile } from "~/features/auth/users.server";
import { listSessions } from "~/features/devices/devices.server";
import { isNotFound, liveKit, rooms, type LiveKit } from "./livekit.server";
import { keepMembersOnly, sessionTag } from "./removal.server";
import type { CallStatus, CallTicket } from "./types";

/**
 * How long a token may be used to join: a few minutes (ADR 0050). A page in a call asks for a new one
 * every CALL_TICKET_RENEW_MS (types.ts), which is also when a former member's page learns it is out.
 */
export const TOKEN_TTL_SECONDS = 2 * 60;

export const CALLS_OFF_MESSAGE = "Calls are not set up on this server.";
export const CALL_FULL_MESSAGE = "This call is full.";
export const CALL_SERVER_AWAY_MESSAGE = "The call server is unreachable right now. Please try again in a moment.";

function requireLiveKit(): LiveKit {
  const config = liveKit();
  if (!config) fail(503, CALLS_OFF_MESSAGE);
  return config;
}

/** The conversation, when the caller is one of its members (PocketBase shows channels to members only); 404 otherwise. */
async function requireMembership(pb: PocketBase, conversationId: string) {
  try {
    await pb.collection("channels").getOne(conversationId, { fields: "id" });
  } catch (error) {
    failOnOutage(error);
    if ([403, 404].includes(pbStatus(error))) fail(404, "Conversation not found");
    throw error;
  }
}

/** The participants in the conversation's call now (none when no call is going on). */
async function participantsOf(config: LiveKit, conversationId: string): Promise<ParticipantInfo[]> {
  try {
    return await rooms(config).listParticipants(conversationId);
  } catch (error) {
    // LiveKit answers "not found" for a room that does not exist (no call going on).
    if (isNotFound(error)) return [];
    console.warn("LiveKit's room service failed", error instanceof Error ? error.message : error);
    fail(503, CALL_SERVER_AWAY_MESSAGE);
  }
}

/**
 * Questions to LiveKit in flight, by conversation: a call event makes every open page of the
 * conversation ask at once (ADR 32), and those that ask while a question is on its way share its answer.
 */
const asking = new Map<string, Promise<ParticipantInfo[]>>();
function participantsNow(config: LiveKit, conversationId: string): Promise<ParticipantInfo[]> {
  let answer = asking.get(conversationId);
  if (!answer) {
    answer = participantsOf(config, conversationId).finally(() => asking.delete(conversationId));
    asking.set(conversationId, answer);
  }
  return answer;
}

/**
 * Whether a call is going on in the conversation, and how many are in it (for members only). A page
 * asks when someone joins its call: anyone there who is not a member is removed at once.
 */
export async function callStatus(pb: PocketBase, conversationId: string, viewerId: string): Promise<CallStatus> {
  await requireMembership(pb, conversationId);
  const config = liveKit();
  if (!config) return { enabled: false, participants: 0 };
  const present = await keepMembersOnly(pb, config, conversationId, await participantsNow(config, conversationId));
  const people = new Set(present.map((p) => p.identity.split(":")[0]));
  // (the viewer in it on another device: their page says so rather than only offering to join)
  return { enabled: true, participants: people.size, ...(people.has(viewerId) ? { withViewer: true } : {}) };
}

/** The id of the caller's signed-in session (their device), as Account > Devices lists it. */
async function currentSession(pb: PocketBase, caller: { token: string; context?: AppLoadContext }) {
  return (await listSessions(pb, caller)).find((s) => s.current)?.id ?? "";
}

/**
 * A token for the conversation's call, for a member's device: room = conversation id, identity =
 * `userId:deviceId`, name = username, and the tag of the session it is for (signing that device out
 * ends its call, removal.server.ts). Refused with 409 when the call already has the most people. A
 * device already in the call renews its token here (its session's tag follows a renewed session).
 */
export async function callTicket(
  pb: PocketBase,
  caller: { userId: string; token: string; context?: AppLoadContext },
  conversationId: string,
  device: string,
): Promise<CallTicket> {
  const { userId } = caller;
  await requireMembership(pb, conversationId);
  const config = requireLiveKit();
  const identity = `${userId}:${device}`;
  const present = await keepMembersOnly(pb, config, conversationId, await participantsOf(config, conversationId));
  const here = present.find((p) => p.identity === identity);
  if (!here && present.length >= config.maxParticipants) fail(409, CALL_FULL_MESSAGE);
  const [profile, session] = await Promise.all([loadProfile(pb, userId).catch(() => null), currentSession(pb, caller)]);
  const attributes = { session: sessionTag(config, session) };
  if (here && here.attributes?.session !== attributes.session)
    await rooms(config)
      .updateParticipant(conversationId, identity, { attributes })
      .catch((error) => console.warn("The call's session tag could not follow", error instanceof Error ? error.message : error));
  const token = new AccessToken(config.apiKey, config.apiSecret, {
    identity,
    name: profile?.username ?? "",
    ttl: TOKEN_TTL_SECONDS,
    attributes,
  });
  token.addGrant({ room: conversationId, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false });
  return { url: config.url, token: await token.toJwt() };
}

/**
 * Tells the conversation's members' open pages (the live relay, pocketbase/calls.go) that the caller's
 * page joined or left its call, so their "Call in progress" bar changes at once; `ring` when the page
 * started the call in a direct conversation (the others' pages ring, a closed one gets a Web Push).
 */
export async function announceCall(
  caller: { token: string; context?: AppLoadContext },
  conversationId: string,
  presence: { event: "joined" | "left" | "declined"; ring?: boolean },
): Promise<void> {
  try {
    await pocketbasePost("/api/chat/call", { channel: conversationId, event: presence.event, ring: presence.ring === true }, caller);
  } catch (error) {
    failOnOutage(error);
    const status = pbStatus(error);
    if (status === 403 || status === 404) fail(404, "Conversation not found");
    fail(status >= 400 && status < 500 ? status : 502, pbErrorMessage(error) ?? "The others could not be told of the call.");
  }
}
