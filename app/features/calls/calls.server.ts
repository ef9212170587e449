/**
 * Calls on the web server (docs/decisions/0030-calls-livekit.md): who may join a conversation's call
 * (its members, as PocketBase's rules say), the short LiveKit access token they get for it, and
 * whether a call is going on. The LiveKit API secret stays here: browsers get only signed tokens.
 */
import type PocketBase from "pocketbase";
import type { AppLoadContext } from "@remix-run/node";
import { AccessToken, RoomServiceClient, ServerError } from "livekit-server-sdk";
import { env } from "~/server/env.server";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus, pocketbasePost } from "~/server/pocketbase.server";
import { failOnOutage } from "~/server/outage.server";
import { loadProfile } from "~/features/auth/users.server";
import type { CallStatus, CallTicket } from "./types";

/** How long a token may be used to join (a joined participant stays until they leave). */
export const TOKEN_TTL_SECONDS = 10 * 60;

export const CALLS_OFF_MESSAGE = "Calls are not set up on this server.";
export const CALL_FULL_MESSAGE = "This call is full.";
export const CALL_SERVER_AWAY_MESSAGE = "The call server is unreachable right now. Please try again in a moment.";

interface LiveKit {
  url: string;
  apiUrl: string;
  apiKey: string;
  apiSecret: string;
  maxParticipants: number;
}

/** The LiveKit settings, or undefined when calls are not configured. */
export function liveKit(): LiveKit | undefined {
  const e = env();
  if (!e.LIVEKIT_URL || !e.LIVEKIT_API_KEY || !e.LIVEKIT_API_SECRET) return undefined;
  return {
    url: e.LIVEKIT_URL,
    apiUrl: e.LIVEKIT_API_URL ?? e.LIVEKIT_URL.replace(/^ws/, "http"),
    apiKey: e.LIVEKIT_API_KEY,
    apiSecret: e.LIVEKIT_API_SECRET,
    maxParticipants: e.CALL_MAX_PARTICIPANTS,
  };
}

function requireLiveKit(): LiveKit {
  const config = liveKit();
  if (!config) fail(503, CALLS_OFF_MESSAGE);
  return config;
}

const rooms = (config: LiveKit) => new RoomServiceClient(config.apiUrl, config.apiKey, config.apiSecret);

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

/** The identities in the conversation's call now (none when no call is going on). */
async function participantsOf(config: LiveKit, conversationId: string): Promise<string[]> {
  try {
    const list = await rooms(config).listParticipants(conversationId);
    return list.map((p) => p.identity);
  } catch (error) {
    // LiveKit answers "not found" for a room that does not exist (no call going on).
    if (error instanceof ServerError && (error.status === 404 || error.code === "not_found")) return [];
    console.warn("LiveKit's room service failed", error instanceof Error ? error.message : error);
    fail(503, CALL_SERVER_AWAY_MESSAGE);
  }
}

/**
 * Questions to LiveKit in flight, by conversation: a call event makes every open page of the
 * conversation ask at once (ADR 32), and those that ask while a question is on its way share its answer.
 */
const asking = new Map<string, Promise<string[]>>();
function participantsNow(config: LiveKit, conversationId: string): Promise<string[]> {
  let answer = asking.get(conversationId);
  if (!answer) {
    answer = participantsOf(config, conversationId).finally(() => asking.delete(conversationId));
    asking.set(conversationId, answer);
  }
  return answer;
}

/** Whether a call is going on in the conversation, and how many are in it (for members only). */
export async function callStatus(pb: PocketBase, conversationId: string): Promise<CallStatus> {
  await requireMembership(pb, conversationId);
  const config = liveKit();
  if (!config) return { enabled: false, participants: 0 };
  const people = new Set((await participantsNow(config, conversationId)).map((identity) => identity.split(":")[0]));
  return { enabled: true, participants: people.size };
}

/**
 * A token for the conversation's call, for a member's device: room = conversation id, identity =
 * `userId:deviceId`, name = username. Refused with 409 when the call already has the most people.
 */
export async function callTicket(pb: PocketBase, userId: string, conversationId: string, device: string): Promise<CallTicket> {
  await requireMembership(pb, conversationId);
  const config = requireLiveKit();
  const identity = `${userId}:${device}`;
  const present = await participantsOf(config, conversationId);
  if (!present.includes(identity) && present.length >= config.maxParticipants) fail(409, CALL_FULL_MESSAGE);
  const profile = await loadProfile(pb, userId).catch(() => null);
  const token = new AccessToken(config.apiKey, config.apiSecret, {
    identity,
    name: profile?.username ?? "",
    ttl: TOKEN_TTL_SECONDS,
  });
  token.addGrant({ room: conversationId, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: false });
  return { url: config.url, token: await token.toJwt() };
}

/**
 * Someone is no longer a member (removed, or left): their devices leave the conversation's call now,
 * rather than when their token would run out. Best effort: their media keys end with the next MLS
 * epoch (or were the channel password's) whatever happens here.
 */
export async function removeFromCall(conversationId: string, userId: string): Promise<void> {
  const config = liveKit();
  if (!config) return;
  try {
    const service = rooms(config);
    const present = await service.listParticipants(conversationId);
    await Promise.all(
      present.filter((p) => p.identity.startsWith(`${userId}:`)).map((p) => service.removeParticipant(conversationId, p.identity)),
    );
  } catch (error) {
    if (error instanceof ServerError && (error.status === 404 || error.code === "not_found")) return;
    console.warn("Could not remove a former member from the call", error instanceof Error ? error.message : error);
  }
}

/**
 * Tells the conversation's members' open pages (the live relay, pocketbase/calls.go) that the caller's
 * page joined or left its call, so their "Call in progress" bar changes at once; `ring` when the page
 * started the call in a direct conversation (the others' pages ring, a closed one gets a Web Push).
 */
export async function announceCall(
  caller: { token: string; context?: AppLoadContext },
  conversationId: string,
  presence: { event: "joined" | "left"; ring?: boolean },
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
