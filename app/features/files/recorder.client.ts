import { useCallback, useEffect, useRef, useState } from "react";
import type { Recording } from "~/features/files/recording.client";

export class MicrophoneError extends Error {}

/**
 * Records audio (recording.client.ts, loaded when first used). `stop()` resolves with the recording
 * as a File, or null when nothing was recorded.
 */
export function useAudioRecorder() {
  const recorder = useRef<Recording | null>(null);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [elapsedMs, setElapsedMs] = useState(0);

  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setElapsedMs(Date.now() - startedAt), 250);
    return () => clearInterval(timer);
  }, [startedAt]);

  useEffect(() => () => recorder.current?.release(), []);

  const start = useCallback(async () => {
    const recording = import("~/features/files/recording.client");
    recording.catch(() => undefined); // (said below, if the microphone was there)
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      throw new MicrophoneError("Failed to access microphone. Please check your permissions.");
    }
    try {
      recorder.current = (await recording).startRecording(stream);
    } catch (error) {
      stream.getTracks().forEach((t) => t.stop());
      throw error;
    }
    setElapsedMs(0);
    setStartedAt(Date.now());
  }, []);

  const stop = useCallback(async (): Promise<File | null> => {
    const rec = recorder.current;
    recorder.current = null;
    setStartedAt(null);
    return rec ? rec.stop() : null;
  }, []);

  return { recording: startedAt !== null, elapsedMs, start, stop };
}
