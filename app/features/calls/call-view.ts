/**
 * What a call shows (session.client.ts keeps it up to date): its people, its state and its messages.
 * Loaded with the call (it reads livekit-client's participants).
 */
import { ConnectionError, MediaDeviceFailure, Track, type Participant } from "livekit-client";
import { KeysNotAcceptedError } from "~/conversation/mls/identity.client";
import { ApiError } from "~/lib/api.client";
import type { CallDevices } from "./devices.client";

export const REMOVED_MESSAGE = "You are no longer a member of this conversation: the call ended.";
/** A call is keyed for every device in the conversation: not while one is under someone's new keys the user has not accepted (ADR 0100). */
export const keysFirstText = (names: string) => `Accept the new keys of ${names} to join this call.`;
/** The same, when such a device joins the conversation during the call: the call's key cannot follow it here. */
export const keysLeftText = (names: string) => `The call ended on this device: accept the new keys of ${names} to join again.`;
export const PERMISSION_MESSAGE = "ChatCrypt could not use your microphone or camera. Allow them in the browser's site settings.";
export const NO_DEVICE_MESSAGE = "No microphone or camera was found. You can still hear and see the others.";
export const DEVICE_BUSY_MESSAGE = "Your microphone or camera is in use by another program. Close it and try again.";
/** How long the page tries to get back to the call server before it says the call ended. */
export const RECONNECT_GIVE_UP_MS = 30_000;
export const CONNECTION_LOST_MESSAGE =
  "The call ended: the connection to the call server was lost. Check your network and start or join the call again.";

export interface CallPerson {
  identity: string;
  name: string;
  local: boolean;
  speaking: boolean;
  encrypted: boolean;
  micOn: boolean;
  camera?: Track;
  screen?: Track;
  audio?: Track;
}

export interface CallView {
  state: "connecting" | "connected" | "reconnecting" | "ended";
  people: CallPerson[];
  micOn: boolean;
  cameraOn: boolean;
  sharing: boolean;
  /** Every participant's media is encrypted end to end (and this page has the key). */
  encrypted: boolean;
  /** Frames this page could not decrypt (a participant with another key). */
  decryptionErrors: number;
  /** The conversation's epoch whose key this page sends with (0 for a classic channel; -1 before). */
  keyEpoch: number;
  /** The microphones and cameras to choose from, and those in use. */
  devices: CallDevices;
  error: string | null;
}

/** The participant's track from `source` while it is live (a camera turned off, a share stopped: none). */
const live = (p: Participant, source: Track.Source) => {
  const publication = p.getTrackPublication(source);
  return publication && !publication.isMuted ? publication.track : undefined;
};

export const personOf = (p: Participant, local: boolean): CallPerson => ({
  identity: p.identity,
  name: p.name || p.identity,
  local,
  speaking: p.isSpeaking,
  encrypted: p.isEncrypted,
  micOn: p.isMicrophoneEnabled,
  camera: live(p, Track.Source.Camera),
  screen: live(p, Track.Source.ScreenShare),
  audio: local ? undefined : p.getTrackPublication(Track.Source.Microphone)?.track,
});

export function failureMessage(error: unknown): string {
  const device = MediaDeviceFailure.getFailure(error);
  if (device === MediaDeviceFailure.PermissionDenied) return PERMISSION_MESSAGE;
  if (device === MediaDeviceFailure.NotFound) return NO_DEVICE_MESSAGE;
  if (device === MediaDeviceFailure.DeviceInUse) return DEVICE_BUSY_MESSAGE;
  if (error instanceof KeysNotAcceptedError) return keysFirstText(error.names);
  if (error instanceof ApiError) return error.message;
  if (error instanceof ConnectionError) return "The call server could not be reached. Please try again in a moment.";
  return "The call could not be started. Please try again.";
}
