// What the call tests share: a real LiveKit, our PocketBase, the web server in front, and a device
// entering a room the way a page does (its signalling connection, with the web app's token).
import { RoomServiceClient } from "livekit-server-sdk";
import { expect } from "vitest";
import { startLiveKit, type RunningLiveKit } from "./livekit";
import { joinSignal } from "./livekit-signal.mjs";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebServer, type WebClient, type WebServer } from "./web-session";

export interface CallStack {
  livekit: RunningLiveKit;
  pb: RunningPocketBase;
  web: WebServer;
  rooms: RoomServiceClient;
  /** The web app's call token for this device of the signed-in person. */
  ticket(client: WebClient, room: string, device: string): Promise<{ url: string; token: string }>;
  /** Who LiveKit has in the room (none when it has no such room). */
  identities(room: string): Promise<string[]>;
  /** Opens a device's signalling connection with the token (closed by stop()), without waiting for LiveKit to list it. */
  join(token: string): Promise<{ close(): void }>;
  /** Joins, and waits until LiveKit lists the device in the room. */
  enter(room: string, token: string, identity: string): Promise<{ close(): void }>;
  stop(): Promise<void>;
}

/** Starts the three; `pocketbaseWatchesRooms` gives PocketBase LiveKit's address and keys (call records, ADR 0070). */
export async function startCallStack({ pocketbaseWatchesRooms = false } = {}): Promise<CallStack> {
  const livekit = await startLiveKit();
  const pb = await startPocketBase(pocketbaseWatchesRooms ? { env: livekit.pocketbaseEnv } : {});
  const web = await startWebServer(pb.url, { env: livekit.webEnv });
  const rooms = new RoomServiceClient(livekit.apiUrl, livekit.apiKey, livekit.apiSecret);
  const sockets: { close(): void }[] = [];
  const identities = async (room: string) => (await rooms.listParticipants(room).catch(() => [])).map((p) => p.identity);
  const join = async (token: string) => {
    const socket = (await joinSignal(livekit.url, token)) as { close(): void };
    sockets.push(socket);
    return socket;
  };
  return {
    livekit,
    pb,
    web,
    rooms,
    identities,
    join,
    ticket: async (client, room, device) => (await client.api(`/api/calls/${room}/token`, { device })) as { url: string; token: string },
    async enter(room, token, identity) {
      const socket = await join(token);
      await expect.poll(() => identities(room), { timeout: 10_000 }).toContain(identity);
      return socket;
    },
    async stop() {
      for (const socket of sockets) socket.close();
      await web.stop();
      await pb.stop();
      await livekit.stop();
    },
  };
}
