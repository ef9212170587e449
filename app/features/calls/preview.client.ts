/**
 * The check of devices before joining a call (PreJoin.tsx): the chosen camera and microphone opened in
 * the page only (nothing is sent anywhere), the microphone's level, and the devices to choose from.
 */
import { useEffect, useState } from "react";
import { failureMessage } from "./call-view";
import { NO_DEVICES, type CallDevices } from "./devices.client";

/** How often the microphone's level is read (ten times a second is smooth enough for a meter). */
const LEVEL_EVERY_MS = 100;

export interface DeviceChoice {
  microphone?: string;
  camera?: string;
}

export interface Preview {
  stream: MediaStream | null;
  /** The microphone's level now, 0 to 1. */
  level: number;
  devices: CallDevices;
  error: string | null;
}

const listed = (devices: MediaDeviceInfo[], kind: MediaDeviceKind) =>
  devices
    .filter((d) => d.kind === kind && d.deviceId)
    .map((d, i) => ({ id: d.deviceId, label: d.label || `${kind === "audioinput" ? "Microphone" : "Camera"} ${i + 1}` }));

const constraint = (id: string | undefined) => (id ? { deviceId: { exact: id } } : true);

/** Opens the chosen devices (the browser's defaults at first) for as long as the check is shown. */
export function usePreview(choice: DeviceChoice): Preview {
  const [preview, setPreview] = useState<Preview>({ stream: null, level: 0, devices: NO_DEVICES, error: null });
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let audio: AudioContext | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    const open = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: constraint(choice.microphone), video: constraint(choice.camera) });
      } catch (error) {
        if (!stopped) setPreview((p) => ({ ...p, stream: null, level: 0, error: failureMessage(error) }));
      }
      if (stopped) return stream?.getTracks().forEach((t) => t.stop());
      const all = await navigator.mediaDevices.enumerateDevices().catch(() => []);
      const inUse = (kind: "audio" | "video") =>
        stream
          ?.getTracks()
          .find((t) => t.kind === kind)
          ?.getSettings().deviceId;
      const microphones = listed(all, "audioinput");
      const cameras = listed(all, "videoinput");
      const devices = {
        microphones,
        cameras,
        microphone: inUse("audio") ?? choice.microphone ?? microphones[0]?.id ?? "",
        camera: inUse("video") ?? choice.camera ?? cameras[0]?.id ?? "",
      };
      if (stopped) return;
      setPreview((p) => ({ ...p, stream, devices, error: stream ? null : p.error }));
      if (!stream?.getAudioTracks().length) return;
      audio = new AudioContext();
      const analyser = audio.createAnalyser();
      analyser.fftSize = 512;
      audio.createMediaStreamSource(stream).connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      timer = setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        const rms = Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length);
        // (speech sits near 0.05-0.3 RMS: shown on a scale that fills at 0.3)
        const level = Math.min(1, Math.round((rms / 0.3) * 100) / 100);
        setPreview((p) => (p.level === level ? p : { ...p, level }));
      }, LEVEL_EVERY_MS);
    };
    void open();
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
      void audio?.close().catch(() => undefined);
    };
  }, [choice.microphone, choice.camera]);
  return preview;
}
