import { Room, RoomEvent } from "livekit-client";

/** The microphones and cameras the browser offers, and which of them the call uses. */
export interface CallDevices {
  microphones: { id: string; label: string }[];
  cameras: { id: string; label: string }[];
  microphone: string;
  camera: string;
}

export const NO_DEVICES: CallDevices = { microphones: [], cameras: [], microphone: "", camera: "" };

const listed = (devices: MediaDeviceInfo[]) =>
  devices.filter((d) => d.deviceId).map((d, i) => ({ id: d.deviceId, label: d.label || `Device ${i + 1}` }));

/**
 * Keeps the call's device choice up to date (devices plugged in or out, the active one switched) and
 * calls `changed` with it; answers a function that stops watching.
 */
export function watchDevices(room: Room, changed: (devices: CallDevices) => void): () => void {
  let stopped = false;
  const read = async () => {
    try {
      const [microphones, cameras] = await Promise.all([
        Room.getLocalDevices("audioinput", false),
        Room.getLocalDevices("videoinput", false),
      ]);
      if (stopped) return;
      const mics = listed(microphones);
      const cams = listed(cameras);
      changed({
        microphones: mics,
        cameras: cams,
        microphone: room.getActiveDevice("audioinput") ?? mics[0]?.id ?? "",
        camera: room.getActiveDevice("videoinput") ?? cams[0]?.id ?? "",
      });
    } catch (error) {
      console.warn("The devices could not be listed", error);
    }
  };
  const refresh = () => void read();
  room.on(RoomEvent.MediaDevicesChanged, refresh);
  room.on(RoomEvent.ActiveDeviceChanged, refresh);
  room.on(RoomEvent.LocalTrackPublished, refresh);
  void read();
  return () => {
    stopped = true;
    room.off(RoomEvent.MediaDevicesChanged, refresh);
    room.off(RoomEvent.ActiveDeviceChanged, refresh);
    room.off(RoomEvent.LocalTrackPublished, refresh);
  };
}
