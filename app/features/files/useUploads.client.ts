import { useEffect, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import type { Channel } from "~/features/channels/types";
import { isAcceptedFile } from "~/features/files/attachments";
import { sendFile, type FileCarrier, type PostCarrier } from "~/features/files/files.client";
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

  async function uploadFile(file: File, failure: string) {
    if (!channel || upload) return;
    setFailed(null);
    setUpload({ name: file.name, fraction: 0 });
    try {
      const sent = await sendFile(user, channel, file, {
        limitBytes: options.limitBytes,
        post: options.post,
        failure,
        onProgress: (fraction) => setUpload({ name: file.name, fraction }),
      });
      options.onSent(channel.id, sent);
    } catch (error) {
      console.warn("Upload failed", error);
      setFailed({ file, failure, error: messageOf(error, failure) });
    } finally {
      setUpload(null);
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
