/**
 * Ending call participation at once (docs/decisions/0050-conversation-words-and-call-ends.md): a
 * former member's devices and a signed-out device leave the call when it happens (LiveKit's
 * RemoveParticipant), and anyone in a conversation's call who is not one of its members is removed
 * whenever a member's page looks (a join, a status question, a token renewal). The LiveKit server we
 * run cannot revoke a token, and it hands connected participants fresh ten-minute tokens for their
 * reconnects: what keeps a removed member out is being removed again the moment they reappear.
 */
import { createHmac } from "node:crypto";
import type PocketBase from "pocketbase";
import type { ParticipantInfo } from "livekit-server-sdk";
import { isNotFound, liveKit, rooms, type LiveKit } from "./livekit.server";

/**
 * The call attribute that names the signed-in session a device's token was minted for: a keyed hash
 * of the session's id (other participants see attributes; they learn nothing from it).
 */
export const sessionTag = (config: LiveKit, sessionId: string) =>
  createHmac("sha256", config.apiSecret).update(`chatcrypt call session\n${sessionId}`).digest("base64url");

const warn = (what: string, error: unknown) => console.warn(what, error instanceof Error ? error.message : error);

async function removeWhere(config: LiveKit, room: string, present: ParticipantInfo[], drop: (p: ParticipantInfo) => boolean) {
  const service = rooms(config);
  await Promise.all(
    present.filter(drop).map((p) =>
      service.removeParticipant(room, p.identity).catch((error) => {
        if (!isNotFound(error)) throw error;
      }),
    ),
  );
}

const userOf = (identity: string) => identity.split(":")[0];

/**
 * Someone is no longer a member (removed, or left): their devices leave the conversation's call now,
 * rather than when their token would run out.
 */
export async function removeFromCall(conversationId: string, userId: string): Promise<void> {
  const config = liveKit();
  if (!config) return;
  try {
    const present = await rooms(config).listParticipants(conversationId);
    await removeWhere(config, conversationId, present, (p) => userOf(p.identity) === userId);
  } catch (error) {
    if (!isNotFound(error)) warn("Could not remove a former member from the call", error);
  }
}

/** Every running call: the participants `drop` picks leave it now. */
async function removeFromEveryCall(config: LiveKit, drop: (p: ParticipantInfo) => boolean, what: string) {
  try {
    const service = rooms(config);
    for (const room of await service.listRooms()) {
      const present = await service.listParticipants(room.name).catch(() => []);
      await removeWhere(config, room.name, present, drop);
    }
  } catch (error) {
    warn(what, error);
  }
}

/** A device was signed out: whatever call its session's token put it in, it leaves now. */
export async function removeSessionFromCalls(sessionId: string, userId: string): Promise<void> {
  const config = liveKit();
  if (!config) return;
  const tag = sessionTag(config, sessionId);
  const drop = (p: ParticipantInfo) => userOf(p.identity) === userId && p.attributes?.session === tag;
  await removeFromEveryCall(config, drop, "Could not remove a signed-out device from its calls");
}

/** Every device of an account was signed out (by an administrator): all of them leave every call now. */
export async function removeUserFromCalls(userId: string): Promise<void> {
  const config = liveKit();
  if (!config) return;
  await removeFromEveryCall(config, (p) => userOf(p.identity) === userId, "Could not remove a signed-out account from its calls");
}

/**
 * The participants of the conversation's call who are its members (as the caller, a member, may read
 * them); anyone else there (a former member back with a token LiveKit still accepts) is removed now.
 */
export async function keepMembersOnly(pb: PocketBase, config: LiveKit, conversationId: string, present: ParticipantInfo[]) {
  if (present.length === 0) return present;
  const memberships = await pb
    .collection("channel_members")
    .getFullList<{ user: string }>({ filter: pb.filter("channel = {:channel}", { channel: conversationId }), fields: "user", batch: 500 });
  const members = new Set(memberships.map((m) => m.user));
  const outsider = (p: ParticipantInfo) => !members.has(userOf(p.identity));
  if (present.some(outsider))
    await removeWhere(config, conversationId, present, outsider).catch((error) =>
      warn("Could not remove a non-member from the call", error),
    );
  return present.filter((p) => !outsider(p));
}
