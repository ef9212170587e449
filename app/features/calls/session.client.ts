/**
 * One call on this page (docs/decisions/0030-calls-livekit.md): joins the conversation's LiveKit room
 * with a token from our server, and encrypts every frame in the browser (LiveKit's E2EE, in its
 * worker) under the call key from the conversation seam, which never leaves the page. Loaded only
 * when a call starts (it carries livekit-client).
 */
import { ConnectionState, DisconnectReason, Room, RoomEvent, setLogLevel } from "livekit-client";
import E2EEWorker from "livekit-client/e2ee-worker?worker";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import type { ConversationCrypto } from "~/conversation/types";
import { deviceId, KeysNotAcceptedError } from "~/conversation/mls/identity.client";
import { announcePresence, callTicket } from "./calls.client";
import { inboundStats, type InboundStats } from "./stats.client";
import { CallKeyProvider } from "./keys.client";
import { NO_DEVICES, watchDevices } from "./devices.client";
import { watchTicket } from "./ticket.client";
import { subscribeOnceKeyed } from "./subscriptions.client";
import type { DeviceChoice } from "./preview.client";
import {
  CONNECTION_LOST_MESSAGE,
  RECONNECT_GIVE_UP_MS,
  REMOVED_MESSAGE,
  failureMessage,
  keysLeftText,
  personOf,
  type CallView,
} from "./call-view";

export type { CallPerson, CallView } from "./call-view";

// LiveKit writes every step of a call to the page's console ("info"); the page keeps its warnings and
// errors there, as for the rest of the product (its E2EE worker takes the same level).
setLogLevel("warn");

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
  private devices = NO_DEVICES;
  private stopDevices: () => void = () => undefined;
  private stopTicket: () => void = () => undefined;
  private stopSubscribing: () => void = () => undefined;
  view: CallView;

  constructor(
    private readonly user: SessionUser,
    private readonly channel: Channel,
  ) {
    this.conversation = conversationOf(user, channel);
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
        void this.leave().finally(() => this.update());
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

  /** Joins: a token from our server, the room, the call key (from the room's id), then microphone and camera (those chosen, if any). */
  async join(choice: DeviceChoice = {}) {
    try {
      // (a key it could not have: said before anything of the call reaches this page)
      await this.conversation.callReady();
      const ticket = await callTicket(this.channel.id, deviceId(this.user.id));
      await this.room.setE2EEEnabled(true);
      // (the others' tracks are taken once the key is set: subscriptions.client.ts)
      await this.room.connect(ticket.url, ticket.token, { autoSubscribe: false });
      const callId = await this.room.getSid();
      this.callId = callId;
      await this.keyProvider.setCallKey(await this.conversation.callKey(callId));
      this.keyed = true;
      this.stopSubscribing = subscribeOnceKeyed(this.room);
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
      if (choice.microphone || choice.camera) {
        await this.room.localParticipant.setMicrophoneEnabled(true, choice.microphone ? { deviceId: choice.microphone } : undefined);
        await this.room.localParticipant.setCameraEnabled(true, choice.camera ? { deviceId: choice.camera } : undefined);
      } else await this.room.localParticipant.enableCameraAndMicrophone();
    } catch (error) {
      this.failure = failureMessage(error);
      // (a key it may not share now, ADR 0100: nothing else to do here until the user accepts the keys)
      if (error instanceof KeysNotAcceptedError) {
        this.callId = null;
        await this.leave();
      } else console.warn("The call could not be started", error);
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
        // No key for the new epoch (this device was removed, or a device under keys the user has not
        // accepted joined): nothing more is sent or read.
        console.warn("The call key could not follow the conversation", error);
        await this.removed(error instanceof KeysNotAcceptedError ? keysLeftText(error.names) : REMOVED_MESSAGE);
      }
    });
  }

  /** This device may not be in the call any more (removed, or signed out): it leaves and says so. */
  private async removed(why = REMOVED_MESSAGE) {
    await this.leave();
    this.failure = why;
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

  /**
   * Leaves the call. Its line in the conversation ("Call ended · 2 min") is PocketBase's to write when
   * the room empties (docs/decisions/0070-call-records-from-the-server.md), whoever leaves last.
   */
  async leave() {
    const joined = this.callId !== null && !this.ended;
    this.ended = true;
    clearTimeout(this.giveUp);
    this.stopWatching();
    this.stopTicket();
    this.stopDevices();
    this.stopSubscribing();
    await this.room.disconnect();
    this.worker.terminate();
    if (joined) void announcePresence(this.channel.id, "left").catch(() => undefined);
  }
}
