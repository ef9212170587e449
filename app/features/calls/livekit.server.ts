/**
 * The LiveKit server as the web server sees it (docs/decisions/0030-calls-livekit.md): its settings
 * from the environment and its room service (the API secret stays here: browsers get only tokens).
 */
import { RoomServiceClient, ServerError } from "livekit-server-sdk";
import { env } from "~/server/env.server";

export interface LiveKit {
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

export const rooms = (config: LiveKit) => new RoomServiceClient(config.apiUrl, config.apiKey, config.apiSecret);

/** LiveKit's answer for a room (or participant) that does not exist: no call going on. */
export const isNotFound = (error: unknown) => error instanceof ServerError && (error.status === 404 || error.code === "not_found");
