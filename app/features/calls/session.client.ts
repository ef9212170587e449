/**
 * One call on this page (docs/decisions/0030-calls-livekit.md): joins the conversation's LiveKit room
 * with a token from our server, and encrypts every frame in the browser (LiveKit's E2EE, in its
 * worker) under the call key from the conversation seam, which never leaves the page. Loaded only
 * when a call starts (it carries livekit-client).
 */
import {
  ConnectionError,
  ConnectionState,
  DisconnectReason,
  MediaDeviceFailure,
  Room,
  RoomEvent,
  Track,
  type Participant,
} from "livekit-client";
import E2EEWorker from "livekit-client/e2ee-worker?worker";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { conversationOf } from "~/features/conversation/conversation.client";
import type { ConversationCrypto } from "~/features/conversation/types";
import { deviceId } from "~/features/sealed/identity.client";
import { ApiError } from "~/lib/api.client";
import { announcePresence, callTicket } from "./calls.client";
import { inboundStats, type InboundStats } from "./stats.client";
import { CallKeyProvider } from "./keys.client";
import { CallRecord } from "./entry.client";
import { NO_DEVICES, watchDevices, type CallDevices } from "./devices.client";
import { watchTicket } from "./ticket.client";

export const REMOVED_MESSAGE = "You are no longer a member of this conversation: the call ended.";
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

const personOf = (p: Participant, local: boolean): CallPerson => ({
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

function failureMessage(error: unknown): string {
  const device = MediaDeviceFailure.getFailure(error);
  if (device === MediaDeviceFailure.PermissionDenied) return PERMISSION_MESSAGE;
  if (device === MediaDeviceFailure.NotFound) return NO_DEVICE_MESSAGE;
  if (device === MediaDeviceFailure.DeviceInUse) return DEVICE_BUSY_MESSAGE;
  if (error instanceof ApiError) return error.message;
  if (error instanceof ConnectionError) return "The call server could not be reached. Please try again in a moment.";
  return "The call could not be started. Please try again.";
}

export class CallSession {
  private readonly room: Room;
  private readonly keyProvider = new CallKeyProvider();
  private readonly conversation: ConversationCrypto;
  private stopWatching: () => void = () => undefined;
  private readonly worker = new E2EEWorker();
  private listeners = new Set<() => void>();
  private keyed = false;
  private errors = 0;
  private failure: string | null = null;
  private ended = false;
  private callId: string | null = null;
  private readonly record: CallRecord;
  private devices = NO_DEVICES;
  private stopDevices: () => void = () => undefined;
  private stopTicket: () => void = () => undefined;
  view: CallView;

  constructor(
    private readonly user: SessionUser,
    private readonly channel: Channel,
  ) {
    this.conversation = conversationOf(user, channel);
    this.record = new CallRecord(user, channel);
    this.room = new Room({ adaptiveStream: true, dynacast: true, e2ee: { keyProvider: this.keyProvider, worker: this.worker } });
    this.view = this.snapshot();
    const update = () => this.update();
    for (const event of [
      RoomEvent.ParticipantConnected,
      RoomEvent.ParticipantDisconnected,
      RoomEvent.TrackPublished,
      RoomEvent.TrackUnpublished,
      RoomEvent.TrackSubscribed,
      RoomEvent.TrackUnsubscribed,
      RoomEvent.TrackMuted,
      RoomEvent.TrackUnmuted,
      RoomEvent.LocalTrackPublished,
      RoomEvent.LocalTrackUnpublished,
      RoomEvent.ActiveSpeakersChanged,
      RoomEvent.ParticipantEncryptionStatusChanged,
      RoomEvent.ConnectionStateChanged,
      RoomEvent.Reconnecting,
      RoomEvent.Reconnected,
    ])
      this.room.on(event, update);
    this.room.on(RoomEvent.ParticipantConnected, (participant) => this.record.saw(participant));
    this.room.on(RoomEvent.ConnectionStateChanged, (state) => this.watchReconnect(state));
    this.room.on(RoomEvent.EncryptionError, () => {
      this.errors++;
      this.update();
    });
    this.room.on(RoomEvent.Disconnected, (reason) => {
      if (!this.ended && reason === DisconnectReason.PARTICIPANT_REMOVED) this.failure = REMOVED_MESSAGE;
      else if (!this.ended && reason !== DisconnectReason.CLIENT_INITIATED) this.failure = CONNECTION_LOST_MESSAGE;
      this.ended = true;
      this.update();
    });
  }

  /**
   * While the call server is away the page tries again ("Reconnecting…"); after RECONNECT_GIVE_UP_MS
   * it gives up with a sentence rather than leave the user waiting.
   */
  private giveUp: ReturnType<typeof setTimeout> | undefined;
  private watchReconnect(state: ConnectionState) {
    const reconnecting = state === ConnectionState.Reconnecting || state === ConnectionState.SignalReconnecting;
    if (!reconnecting) {
      clearTimeout(this.giveUp);
      this.giveUp = undefined;
    } else if (!this.giveUp) {
      this.giveUp = setTimeout(() => {
        if (this.ended) return;
        this.failure = CONNECTION_LOST_MESSAGE;
        void this.leave({ entry: false }).finally(() => this.update());
      }, RECONNECT_GIVE_UP_MS);
    }
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private update() {
    this.view = this.snapshot();
    this.listeners.forEach((listener) => listener());
  }

  private snapshot(): CallView {
    const local = this.room.localParticipant;
    const people = [personOf(local, true), ...[...this.room.remoteParticipants.values()].map((p) => personOf(p, false))];
    const state = this.ended
      ? "ended"
      : this.room.state === ConnectionState.Reconnecting || this.room.state === ConnectionState.SignalReconnecting
        ? "reconnecting"
        : this.room.state === ConnectionState.Connected && this.keyed
          ? "connected"
          : "connecting";
    return {
      state,
      people,
      micOn: local.isMicrophoneEnabled,
      cameraOn: local.isCameraEnabled,
      sharing: local.isScreenShareEnabled,
      encrypted: this.keyed && this.room.isE2EEEnabled && people.every((p) => p.encrypted),
      decryptionErrors: this.errors,
      keyEpoch: this.keyProvider.epoch,
      devices: this.devices,
      error: this.failure,
    };
  }

  /** Joins: a token from our server, the room, the call key (from the room's id), then microphone and camera. */
  async join() {
    try {
      const ticket = await callTicket(this.channel.id, deviceId(this.user.id));
      await this.room.setE2EEEnabled(true);
      await this.room.connect(ticket.url, ticket.token);
      const callId = await this.room.getSid();
      this.callId = callId;
      this.record.saw(this.room.localParticipant);
      this.room.remoteParticipants.forEach((participant) => this.record.saw(participant));
      await this.keyProvider.setCallKey(await this.conversation.callKey(callId));
      this.keyed = true;
      // A new MLS epoch (someone added or removed) brings a new call key, from then on.
      this.stopWatching = this.conversation.watchKeys(() => void this.rekey(callId));
      this.stopTicket = watchTicket(this.room, this.channel.id, deviceId(this.user.id), () => void this.removed());
      this.stopDevices = watchDevices(this.room, (devices) => {
        this.devices = devices;
        this.update();
      });
      this.update();
      // The members' pages learn of it now (a direct call started here rings the other person).
      const started = this.channel.direct === true && this.room.remoteParticipants.size === 0;
      void announcePresence(this.channel.id, "joined", started).catch((error) =>
        console.warn("The others were not told of the call", error),
      );
      await this.room.localParticipant.enableCameraAndMicrophone();
    } catch (error) {
      console.warn("The call could not be started", error);
      this.failure = failureMessage(error);
    }
    this.update();
  }

  private rekeying: Promise<unknown> = Promise.resolve();
  private rekey(callId: string) {
    this.rekeying = this.rekeying.then(async () => {
      if (this.ended) return;
      try {
        if (await this.keyProvider.setCallKey(await this.conversation.callKey(callId))) this.update();
      } catch (error) {
        // No key for the new epoch (this device was removed): nothing more is sent or read.
        console.warn("The call key could not follow the conversation", error);
        await this.removed();
      }
    });
  }

  /** This device may not be in the call any more (removed, or signed out): it leaves and says so. */
  private async removed() {
    await this.leave({ entry: false });
    this.failure = REMOVED_MESSAGE;
    this.update();
  }

  private async toggle(work: () => Promise<unknown>) {
    try {
      this.failure = null;
      await work();
    } catch (error) {
      this.failure = failureMessage(error);
    }
    this.update();
  }

  setMicrophone = (on: boolean) => this.toggle(() => this.room.localParticipant.setMicrophoneEnabled(on));
  setCamera = (on: boolean) => this.toggle(() => this.room.localParticipant.setCameraEnabled(on));
  /** Switches the call to another microphone or camera, live. */
  chooseDevice = (kind: "audioinput" | "videoinput", deviceId: string) => this.toggle(() => this.room.switchActiveDevice(kind, deviceId));
  setScreenShare = (on: boolean) => this.toggle(() => this.room.localParticipant.setScreenShareEnabled(on, { audio: false }));

  /** Bytes and decoded frames received from each remote track (the call's diagnostics). */
  stats(): Promise<InboundStats[]> {
    return inboundStats(this.room);
  }

  /** Leaves the call; the last one out leaves its entry in the conversation (unless `entry` is false: removed). */
  async leave({ entry = true } = {}) {
    const text = entry && !this.ended && this.keyed ? this.record.entry(this.room) : null;
    const joined = this.callId !== null && !this.ended;
    this.ended = true;
    clearTimeout(this.giveUp);
    this.stopWatching();
    this.stopTicket();
    this.stopDevices();
    await this.room.disconnect();
    this.worker.terminate();
    if (joined) void announcePresence(this.channel.id, "left").catch(() => undefined);
    if (text && this.callId) await this.record.post(text, this.callId);
  }
}
