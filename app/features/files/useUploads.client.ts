import { useEffect, useRef, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import type { Channel } from "~/features/channels/types";
import { isAcceptedFile } from "~/features/files/attachments";
import type { FileCarrier, PostCarrier } from "~/features/files/files.client";
import { MicrophoneError, useAudioRecorder } from "~/features/files/recorder.client";

/** File and audio messages (spec §5, §9): upload progress, a failed file kept for Retry, the recorder. */
export function useUploads<M extends FileCarrier>(
  user: SessionUser,
  channel: Channel | null,
  options: { limitBytes: number; notify: Notify; post: PostCarrier<M>; onSent: (channelId: string, message: M) => void },
) {
  const [upload, setUpload] = useState<{ name: string; fraction: number } | null>(null);
  const [failed, setFailed] = useState<{ file: File; error: string; failure: string } | null>(null);
  const recorder = useAudioRecorder();

  useEffect(() => setFailed(null), [channel?.id]);

  // A file picked while another uploads waits its turn (for the conversation it was picked in).
  const uploading = useRef(false);
  const waiting = useRef<{ file: File; failure: string; channel: Channel }[]>([]);

  async function uploadFile(file: File, failure: string, to: Channel | null = channel) {
    if (!to) return;
    if (uploading.current) {
      waiting.current.push({ file, failure, channel: to });
      return;
    }
    uploading.current = true;
    setFailed(null);
    setUpload({ name: file.name, fraction: 0 });
    try {
      // (the code that encrypts and uploads loads with the first file sent)
      const { sendFile } = await import("~/features/files/send.client");
      const sent = await sendFile(user, to, file, {
        limitBytes: options.limitBytes,
        post: options.post,
        failure,
        onProgress: (fraction) => setUpload({ name: file.name, fraction }),
      });
      options.onSent(to.id, sent);
    } catch (error) {
      console.warn("Upload failed", error);
      setFailed({ file, failure, error: messageOf(error, failure) });
    } finally {
      setUpload(null);
      uploading.current = false;
      const next = waiting.current.shift();
      if (next) void uploadFile(next.file, next.failure, next.channel);
    }
  }

  function pickFile(file: File) {
    if (!isAcceptedFile(file.name, file.type)) {
      setFailed(null);
      return options.notify("Only images, .pdf, .txt and .zip files can be sent.", "error");
    }
    void uploadFile(file, "Failed to upload file");
  }

  async function toggleRecording() {
    if (recorder.recording) {
      const file = await recorder.stop();
      if (file) await uploadFile(file, "Failed to send audio message");
      return;
    }
    try {
      await recorder.start();
    } catch (error) {
      options.notify(
        error instanceof MicrophoneError ? error.message : "Failed to access microphone. Please check your permissions.",
        "error",
      );
    }
  }

  return {
    upload,
    failedFile: failed ? { name: failed.file.name, error: failed.error } : null,
    pickFile,
    retry: () => failed && void uploadFile(failed.file, failed.failure),
    discard: () => setFailed(null),
    recording: recorder.recording ? { elapsedMs: recorder.elapsedMs } : null,
    toggleRecording: () => void toggleRecording(),
  };
}
