import { useEffect, useRef, useState } from "react";
import { messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Notify } from "~/ui/Toast";
import type { Channel } from "~/conversation/channels/types";
import type { FileCarrier, PostCarrier } from "~/features/files/files.client";
import { acceptFor, isAllowedFile, MIB, refusalFor, tooLargeText, type FilePolicy } from "~/features/files/policy";
import { refreshFilePolicy, useFilePolicy } from "~/features/files/policy.client";
import { MicrophoneError, useAudioRecorder } from "~/features/files/recorder.client";
import type { Posted } from "~/features/files/send.client";
import { api, ApiError } from "~/lib/api.client";
import { useWhenBackOnline } from "~/lib/useOnline";

/** A file to send; `posted`: its message, already on the server, when an earlier try's upload failed. */
type Job = { file: File; failure: string; caption: string; posted?: Posted<FileCarrier> };

/** A file's message whose file never went up: deleted, or it would wait for its file forever. True once it is gone. */
const deletePosted = (posted: Posted<FileCarrier>) =>
  api(`/api/messages/${posted.message.id}/delete`, {}).then(
    () => true,
    (error: unknown) => {
      // (gone already: an earlier try's answer was lost)
      if (error instanceof ApiError && error.status === 404) return true;
      console.warn("The unsent file's message stayed", error);
      return false;
    },
  );

/** What the failed file's row says when its message could not be taken away (Discard tries again). */
export const NOT_DISCARDED = "Its message could not be removed. Check your connection and press Discard again.";

/**
 * File and audio messages (spec §5, §9): a picked file waits for "Send file" with its caption (ADR 71),
 * then upload progress, a failed file kept for Retry, the recorder.
 */
export function useUploads<M extends FileCarrier>(
  user: SessionUser,
  channel: Channel | null,
  options: { limitBytes: number; notify: Notify; post: PostCarrier<M>; onSent: (channelId: string, message: M) => void },
) {
  const [upload, setUpload] = useState<{ name: string; fraction: number } | null>(null);
  /**
   * A file that did not go; `refused`: by the server itself (too large now, a kind not allowed), so trying
   * again cannot help; `offline`: the device was offline, and it goes again by itself once it is back.
   */
  const [failed, setFailed] = useState<(Job & { error: string; refused?: boolean; offline?: boolean }) | null>(null);
  /** Files picked together wait their turn in "Send a file", one after the other. */
  const [pending, setPending] = useState<File[]>([]);
  const policy = useFilePolicy(channel?.id, options.limitBytes);
  const recorder = useAudioRecorder();

  useEffect(() => {
    setFailed(null);
    setPending([]);
  }, [channel?.id]);

  // A file sent while another uploads waits its turn (for the conversation it was picked in).
  const uploading = useRef(false);
  const waiting = useRef<(Job & { channel: Channel })[]>([]);
  const discarding = useRef(false);

  async function uploadFile(job: Job, to: Channel | null = channel) {
    if (!to) return;
    if (uploading.current) {
      waiting.current.push({ ...job, channel: to });
      return;
    }
    const { file, failure, caption } = job;
    uploading.current = true;
    setFailed(null);
    setUpload({ name: file.name, fraction: 0 });
    try {
      // (the code that encrypts and uploads loads with the first file sent)
      const { sendFile } = await import("~/features/files/send.client");
      const sent = await sendFile(user, to, file, {
        limitBytes: policy.maxMb * MIB,
        post: (target, hash, itemKey) => options.post(target, hash, itemKey, caption),
        posted: job.posted as Posted<M> | undefined,
        failure,
        onProgress: (fraction) => setUpload({ name: file.name, fraction }),
      });
      options.onSent(to.id, sent);
    } catch (error) {
      console.warn("Upload failed", error);
      // Its message posted (UploadNotFinished): Retry uploads the file to it, Discard deletes it; a file
      // the server refused (too large now) takes its message away at once.
      const { posted = job.posted, refused } = error as { posted?: Posted<FileCarrier>; refused?: boolean };
      // (one that stays is taken away by Discard)
      const gone = refused && posted ? await deletePosted(posted) : false;
      setFailed({
        ...job,
        posted: gone ? undefined : posted,
        error: messageOf(error, failure),
        refused: Boolean(refused),
        offline: !refused && navigator.onLine === false,
      });
    } finally {
      setUpload(null);
      uploading.current = false;
      const next = waiting.current.shift();
      if (next) void uploadFile(next, next.channel);
    }
  }

  /**
   * Files picked, dropped or pasted together: each is offered in turn; one the workspace does not allow is
   * refused, named when there were several (the policy read again first: an administrator may have changed it).
   */
  async function pickFiles(files: readonly File[]) {
    const current: FilePolicy = (await refreshFilePolicy(true)) ?? policy;
    const refusal = (file: File) =>
      !isAllowedFile(file.name, file.type, current.types)
        ? refusalFor(current.types)
        : file.size > current.maxMb * MIB
          ? tooLargeText(current.maxMb)
          : null;
    const refused = files.filter((file) => refusal(file) !== null);
    if (refused.length > 0)
      options.notify(
        files.length === 1 ? refusal(refused[0])! : refused.map((file) => `${file.name}: ${refusal(file)}`).join(" "),
        "error",
      );
    const allowed = files.filter((file) => refusal(file) === null);
    if (allowed.length > 0) setPending((waiting) => [...waiting, ...allowed]);
  }

  /**
   * "Send file": the kinds are read again first, as at the pick (an administrator may have narrowed them
   * while "Send a file" was open); a kind no longer allowed is refused like the server's refusals: Discard
   * only, its caption back in the message box. (The size is the server's to refuse.)
   */
  async function sendPicked(job: Job) {
    const current: FilePolicy = (await refreshFilePolicy(true)) ?? policy;
    if (isAllowedFile(job.file.name, job.file.type, current.types)) return uploadFile(job);
    setFailed({ ...job, error: refusalFor(current.types), refused: true });
  }

  // (a file that failed for the connection goes again once the browser is back online, as messages do)
  useWhenBackOnline(failed && !failed.refused && failed.error !== NOT_DISCARDED ? () => void uploadFile(failed) : null);

  async function toggleRecording() {
    if (recorder.recording) {
      const file = await recorder.stop();
      if (file) await uploadFile({ file, failure: "Failed to send audio message", caption: "" });
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
    failedFile: failed
      ? {
          name: failed.file.name,
          error: failed.error,
          refused: Boolean(failed.refused),
          offline: Boolean(failed.offline),
          caption: failed.caption,
        }
      : null,
    accept: acceptFor(policy.types),
    pickFiles: (files: readonly File[]) => void pickFiles(files),
    /** The picked file waiting for "Send file" or Cancel (the next of several comes after it). */
    pendingFile: pending[0] ?? null,
    /** How many picked files wait after this one. */
    pendingMore: Math.max(0, pending.length - 1),
    sendPending: (caption: string) => {
      if (pending[0]) void sendPicked({ file: pending[0], failure: "Failed to upload file", caption });
      setPending((waiting) => waiting.slice(1));
    },
    cancelPending: () => setPending((waiting) => waiting.slice(1)),
    retry: () => failed && void uploadFile(failed),
    discard: () => {
      // (a message posted for a file that never went up goes too, or it would wait for its file forever;
      // should that fail, the row stays and says so)
      const job = failed;
      if (!job?.posted) return setFailed(null);
      if (discarding.current) return;
      discarding.current = true;
      void deletePosted(job.posted).then((gone) => {
        discarding.current = false;
        setFailed(gone ? null : { ...job, error: NOT_DISCARDED });
      });
    },
    recording: recorder.recording ? { elapsedMs: recorder.elapsedMs } : null,
    toggleRecording: () => void toggleRecording(),
  };
}
