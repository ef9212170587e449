import type { Participant, Room } from "livekit-client";
import { ApiError } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { postEnvelope } from "~/features/messages/messages.client";
import { sentElsewhere } from "~/features/messages/sent-elsewhere.client";
import { callEntryId, callEntryText } from "./entry";

/** A member's identity in a call is `userId:deviceId` (calls.server.ts); anything else is no member of ours. */
const userOf = (identity: string) => (/^[a-z0-9]{15}:/.test(identity) ? identity.split(":")[0] : null);

/**
 * What this page saw of its call, for the entry it leaves in the conversation: who took part (people,
 * not devices) and when the call began. The last one to leave posts the entry
 * (docs/decisions/0032-call-entries-and-ringing.md).
 */
export class CallRecord {
  private readonly people = new Set<string>();
  private firstJoined = Infinity;

  constructor(
    private readonly user: SessionUser,
    private readonly channel: Channel,
  ) {}

  /** Notes a participant of the call (on joining, and as others come). */
  saw(participant: Participant) {
    const person = userOf(participant.identity);
    if (!person) return;
    this.people.add(person);
    const joined = participant.joinedAt?.getTime();
    if (joined && joined < this.firstJoined) this.firstJoined = joined;
  }

  /** When the call began: the call server's creation time of the room, else the first join this page saw. */
  private startedAt(room: Room): number {
    const info = (room as unknown as { roomInfo?: { creationTimeMs?: bigint; creationTime?: bigint } }).roomInfo;
    const created = Number(info?.creationTimeMs ?? 0n) || Number(info?.creationTime ?? 0n) * 1000;
    return created > 0 ? Math.min(created, this.firstJoined) : Number.isFinite(this.firstJoined) ? this.firstJoined : Date.now();
  }

  /**
   * As this page leaves (before it disconnects): when nobody else is left in the call, the entry's
   * text ("Call, N min, N people"); null while others are still in it.
   */
  entry(room: Room): string | null {
    // Someone else of ours still in it (a page without an identity of ours, such as a stranger with a token, does not count).
    if ([...room.remoteParticipants.values()].some((p) => userOf(p.identity))) return null;
    this.saw(room.localParticipant);
    return callEntryText(Date.now() - this.startedAt(room), Math.max(1, this.people.size));
  }

  /** Posts the entry to the conversation, sealed like any message, under the call's entry id. */
  async post(text: string, callId: string): Promise<void> {
    try {
      sentElsewhere(await postEnvelope(this.user, this.channel, { text, files: [] }, undefined, await callEntryId(callId)));
    } catch (error) {
      // 409: another page of the call posted it first (one entry per conversation and id).
      if (!(error instanceof ApiError && error.status === 409)) console.warn("The call's entry could not be posted", error);
    }
  }
}
