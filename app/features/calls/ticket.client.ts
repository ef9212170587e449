/**
 * A page in a call keeps its membership checked (docs/decisions/0050-conversation-words-and-call-ends.md):
 * it asks for a new short token before the one it joined with runs out (a refusal means this device is
 * no longer a member, or signed out: it leaves), and when someone joins its call it asks the server,
 * which removes anyone there who is not a member.
 */
import { RoomEvent, type Room } from "livekit-client";
import { ApiError } from "~/lib/api.client";
import { callStatus, callTicket } from "./calls.client";
import { CALL_TICKET_RENEW_MS } from "./types";

export function watchTicket(room: Room, conversationId: string, device: string, onRefused: () => void): () => void {
  const renew = async () => {
    try {
      await callTicket(conversationId, device);
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) onRefused();
    }
  };
  const timer = setInterval(() => void renew(), CALL_TICKET_RENEW_MS);
  const joined = () => void callStatus(conversationId).catch(() => undefined);
  room.on(RoomEvent.ParticipantConnected, joined);
  return () => {
    clearInterval(timer);
    room.off(RoomEvent.ParticipantConnected, joined);
  };
}
