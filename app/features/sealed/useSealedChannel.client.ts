import { useCallback, useEffect, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/features/channels/types";
import { sealedChannel } from "~/features/sealed/sealed.client";
import type { SealedChannel } from "~/features/sealed/runtime.client";
import type { JoinProof, SealedStatus } from "~/features/sealed/types";

/** What the channel says about this device's view of a sealed channel (never a silent gap). */
export function sealedNotice(status: SealedStatus | null, nameOf: (userId: string) => string = (id) => id): string | null {
  if (!status) return null;
  if (status.removed) return "You are no longer a member of this sealed channel: messages sent since you were removed cannot be read.";
  const parts: string[] = [];
  if (status.rejoined) parts.push("This device rejoined the sealed channel; messages sent while it was out of step cannot be read here.");
  if (status.before > 0) parts.push("Messages sent before this device joined the sealed channel cannot be read here.");
  for (const userId of status.refused)
    parts.push(
      `A device of ${nameOf(userId)} was put into this conversation without a participant adding them: this device refused it, and nothing sent from here can be read by it.`,
    );
  if (status.tampered)
    parts.push(
      "This conversation's list of participants was changed without a participant's signature: this device keeps the one it trusts.",
    );
  if (status.missed > 0) parts.push(`${status.missed} ${status.missed === 1 ? "message" : "messages"} could not be read on this device.`);
  return parts.length ? parts.join(" ") : null;
}

/**
 * The open sealed channel's runtime: its status (epoch, code, what could not be read), removal of the
 * leaves of users who are no longer members (whoever is online commits it), and "Update keys".
 */
export function useSealedChannel(
  user: SessionUser,
  channel: Channel | null,
  proofOf: (channel: Channel) => JoinProof,
  members: readonly { userId: string; username: string }[],
  onError: (text: string) => void,
) {
  const [runtime, setRuntime] = useState<SealedChannel | null>(null);
  const [status, setStatus] = useState<SealedStatus | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setRuntime(null);
    setStatus(null);
    if (!channel?.sealed) return;
    let live = true;
    let unsubscribe = () => {};
    sealedChannel(user, channel, proofOf(channel)).then(
      (found) => {
        if (!live) return;
        setRuntime(found);
        setStatus(found.status);
        unsubscribe = found.subscribe(() => setStatus(found.status));
      },
      (error) => {
        console.warn("The sealed channel could not be opened", error);
        if (live) onError("This sealed channel could not be opened on this device. Please try again.");
      },
    );
    return () => {
      live = false;
      unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a list refresh keeps the same channel
  }, [user, channel?.id, channel?.sealed]);

  // The member list is loaded (it always holds the viewer): leaves of anyone else go.
  const memberIds = members.map((m) => m.userId).join(",");
  useEffect(() => {
    if (!runtime || !memberIds.split(",").includes(user.id)) return;
    runtime.reconcile(memberIds.split(",")).catch((error) => console.warn("Removed members' devices could not be removed yet", error));
  }, [runtime, memberIds, user.id]);

  // Removed from a direct conversation whose user is a member again: a participant's page may be
  // listing this device again right now, so it tries to get back in (1 s, doubling, for half a minute).
  const outOfDirect = Boolean(runtime && status?.removed && channel?.direct);
  useEffect(() => {
    if (!runtime || !outOfDirect) return;
    let delay = 1_000;
    let timer: ReturnType<typeof setTimeout>;
    const retry = () => {
      timer = setTimeout(() => {
        void runtime.sync().catch((error) => console.warn("The conversation could not be joined again yet", error));
        delay *= 2;
        if (delay <= 16_000) retry();
      }, delay);
    };
    retry();
    return () => clearTimeout(timer);
  }, [runtime, outOfDirect]);

  const updateKeys = useCallback(async () => {
    if (!runtime) return;
    setBusy(true);
    try {
      await runtime.updateKeys();
    } catch {
      onError("The channel's keys could not be updated. Please try again.");
    } finally {
      setBusy(false);
    }
  }, [runtime, onError]);

  const refresh = useCallback(() => void runtime?.sync().catch(() => undefined), [runtime]);

  return {
    status,
    busy,
    updateKeys,
    refresh,
    notice: sealedNotice(status, (id) => members.find((m) => m.userId === id)?.username ?? "someone"),
  };
}
