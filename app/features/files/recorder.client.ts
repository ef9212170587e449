import { useCallback, useEffect, useRef, useState } from "react";
import { pickAudioType } from "~/features/files/attachments";

export class MicrophoneError extends Error {}

/**
 * Records audio with MediaRecorder: webm where supported, otherwise ogg. `stop()` resolves with the
 * recording as a File, or null when nothing was recorded.
 */
export function useAudioRecorder() {
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [elapsedMs, setElapsedMs] = useState(0);

  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setElapsedMs(Date.now() - startedAt), 250);
    return () => clearInterval(timer);
  }, [startedAt]);

  useEffect(() => () => recorder.current?.stream.getTracks().forEach((t) => t.stop()), []);

  const start = useCallback(async () => {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      throw new MicrophoneError("Failed to access microphone. Please check your permissions.");
    }
    const { mimeType } = pickAudioType((t) => typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(t));
    const rec = new MediaRecorder(stream, { mimeType });
    chunks.current = [];
    rec.ondataavailable = (event) => event.data.size > 0 && chunks.current.push(event.data);
    rec.start(250);
    recorder.current = rec;
    setElapsedMs(0);
    setStartedAt(Date.now());
  }, []);

  const stop = useCallback(async (): Promise<File | null> => {
    const rec = recorder.current;
    recorder.current = null;
    setStartedAt(null);
    if (!rec) return null;
    const done = new Promise<void>((resolve) => (rec.onstop = () => resolve()));
    rec.stop();
    rec.stream.getTracks().forEach((t) => t.stop());
    await done;
    const type = rec.mimeType || "audio/webm";
    const ext = type.startsWith("audio/ogg") ? "ogg" : "webm";
    const blob = new Blob(chunks.current, { type: type.split(";")[0] });
    chunks.current = [];
    if (blob.size === 0) return null;
    const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
    return new File([blob], `voice-message-${stamp}.${ext}`, { type: blob.type });
  }, []);

  return { recording: startedAt !== null, elapsedMs, start, stop };
}
