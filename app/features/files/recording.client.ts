import { pickAudioType } from "~/conversation/files/attachments";

/** A recording under way (recorder.client.ts): loaded when "Record audio" is first used. */
export interface Recording {
  /** Stops it: the recording as a File, or null when nothing was recorded. */
  stop(): Promise<File | null>;
  /** Lets go of the microphone without keeping anything. */
  release(): void;
}

/** Records the microphone's stream with MediaRecorder: webm where supported, otherwise ogg. */
export function startRecording(stream: MediaStream): Recording {
  const { mimeType } = pickAudioType((t) => typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(t));
  const rec = new MediaRecorder(stream, { mimeType });
  const chunks: Blob[] = [];
  rec.ondataavailable = (event) => event.data.size > 0 && chunks.push(event.data);
  rec.start(250);
  const release = () => rec.stream.getTracks().forEach((t) => t.stop());
  return {
    release,
    async stop() {
      const done = new Promise<void>((resolve) => (rec.onstop = () => resolve()));
      rec.stop();
      release();
      await done;
      const type = rec.mimeType || "audio/webm";
      const ext = type.startsWith("audio/ogg") ? "ogg" : "webm";
      const blob = new Blob(chunks, { type: type.split(";")[0] });
      if (blob.size === 0) return null;
      const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
      return new File([blob], `voice-message-${stamp}.${ext}`, { type: blob.type });
    },
  };
}
