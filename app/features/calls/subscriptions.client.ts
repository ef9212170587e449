import { RoomEvent, type RemoteTrackPublication, type Room } from "livekit-client";

/**
 * The page joins a call without taking anyone's tracks (`autoSubscribe: false`): the call key comes
 * from the room's id, known only once connected, and a frame received before the key is set is one
 * LiveKit's decoder cannot read ("MissingKey"). Once the key is set, this takes every track published
 * in the room, and each one published afterwards. Answers how to stop following new ones.
 */
export function subscribeOnceKeyed(room: Room): () => void {
  const take = (publication: RemoteTrackPublication) => {
    if (!publication.isSubscribed) publication.setSubscribed(true);
  };
  for (const participant of room.remoteParticipants.values()) participant.trackPublications.forEach(take);
  room.on(RoomEvent.TrackPublished, take);
  return () => void room.off(RoomEvent.TrackPublished, take);
}
