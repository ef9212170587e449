import type { Room } from "livekit-client";

/** What this page receives from one remote track: bytes, and for video the frames decoded. */
export interface InboundStats {
  participant: string;
  kind: "audio" | "video";
  source: string;
  bytesReceived: number;
  framesDecoded: number;
}

/** The inbound RTP statistics of every track this page is subscribed to. */
export async function inboundStats(room: Room): Promise<InboundStats[]> {
  const out: InboundStats[] = [];
  for (const participant of room.remoteParticipants.values()) {
    for (const publication of participant.trackPublications.values()) {
      const track = publication.track;
      if (!track) continue;
      const report = await track.getRTCStatsReport();
      let bytesReceived = 0;
      let framesDecoded = 0;
      report?.forEach((entry: { type?: string; bytesReceived?: number; framesDecoded?: number }) => {
        if (entry.type !== "inbound-rtp") return;
        bytesReceived += entry.bytesReceived ?? 0;
        framesDecoded += entry.framesDecoded ?? 0;
      });
      out.push({
        participant: participant.identity,
        kind: track.kind === "video" ? "video" : "audio",
        source: publication.source,
        bytesReceived,
        framesDecoded,
      });
    }
  }
  return out;
}
