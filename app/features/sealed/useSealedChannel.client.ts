import { useCallback, useEffect, useRef, useState } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { sealedChannel, startAfresh as startAfreshHere } from "~/conversation/mls/sealed.client";
import type { SealedChannel } from "~/conversation/mls/runtime.client";
import type { JoinProof, SealedStatus } from "~/conversation/mls/types";
import type { sealedNotice } from "~/conversation/mls/notice";
import { unknownKeysText, words } from "~/conversation/mls/words";
import { ChatError } from "~/lib/errors";
import { on } from "~/lib/events";
import { getChannelPassword } from "~/lib/storage.client";
import { subscribePins, waitsForKeysIn } from "~/conversation/senders/pin-state.client";
import { knownDeactivated } from "~/conversation/senders/profiles.client";
import { deactivatedAmong } from "~/features/deactivation/profiles.client";
import { isAdminRole } from "~/features/roles/roles";
import { useStanding } from "~/features/roles/standing.client";

/**
 * The open sealed channel's runtime: its status (epoch, code, what could not be read), removal of the
 * leaves of users who are no longer members (whoever is online commits it), "Update keys", and the
 * creator's "Reset encryption for this conversation" (ADR 0049).
 */
/** Waits before each new try of a conversation that could not be opened (the last one repeats). */
const OPEN_AGAIN_MS = [2_000, 4_000, 8_000, 16_000, 30_000];

/**
 * Calls `again` once: after the wait for this try, as soon as the browser is back online, or when a
 * commit moves the conversation's group (another participant's page may have signed its list again,
 * ADR 0051). Answers the cancel.
 */
function openAgainLater(attempt: number, channelId: string, again: () => void): () => void {
  let cancel = () => {};
  const once = () => {
    cancel();
    again();
  };
  const timer = setTimeout(once, OPEN_AGAIN_MS[Math.min(attempt, OPEN_AGAIN_MS.length - 1)]);
  window.addEventListener("online", once);
  const moved = on("conversation:epoch", (event) => event.channelId === channelId && once());
  cancel = () => {
    clearTimeout(timer);
    window.removeEventListener("online", once);
    moved();
  };
  return cancel;
}

export function useSealedChannel(
  user: SessionUser,
  channel: Channel | null,
  proofOf: (channel: Channel) => JoinProof,
  members: readonly { userId: string; username: string; joined?: string }[],
  onError: (text: string) => void,
  /** The conversation opened after it could not: what its history could not read is read again. */
  onOpenedAgain: () => void,
) {
  const [runtime, setRuntime] = useState<SealedChannel | null>(null);
  const { role } = useStanding(user);
  const [status, setStatus] = useState<SealedStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [describe, setDescribe] = useState<typeof sealedNotice | null>(null);
  /** Opened again once someone's new keys are accepted, or after a failure. */
  const [attempt, setAttempt] = useState(0);
  /** The channel whose opening failed last (its error is not said again at each new try). */
  const failedAt = useRef<string | null>(null);
  /**
   * A one-to-one this device cannot open, whose list it cannot check: it may be started afresh (ADR 0098).
   * Why, shown with the offer for as long as it stands (not a notice that goes by itself).
   */
  const [afresh, setAfresh] = useState<string | null>(null);

  useEffect(() => {
    setRuntime(null);
    setStatus(null);
    setAfresh(null);
    if (!channel?.sealed) return;
    let live = true;
    let unsubscribe = () => {};
    // (what the notices say loads with the runtime: no sealed channel, none of it in the page)
    Promise.all([sealedChannel(user, channel, proofOf(channel)), import("~/conversation/mls/notice")]).then(
      ([found, notices]) => {
        if (!live) return;
        if (failedAt.current === channel.id) onOpenedAgain();
        failedAt.current = null;
        setRuntime(found);
        setDescribe(() => notices.sealedNotice);
        setStatus(found.status);
        unsubscribe = found.subscribe(() => setStatus(found.status));
      },
      (error) => {
        console.warn("The sealed channel could not be opened", error);
        void import("~/conversation/mls/identity.client").then(({ takeUnknownLeaf }) => {
          if (!live) return;
          // A one-to-one whose list or devices this device cannot check at all: it may start it afresh (ADR 0098).
          const unknown = takeUnknownLeaf(channel.id);
          // (one whose other person's devices hold under no key of theirs it knows says so: trying again cannot help)
          const why =
            error instanceof ChatError && error.telling
              ? error.message
              : channel.oneToOne && unknown
                ? unknownKeysText(channel.name)
                : words(channel).openFailed;
          const offered = Boolean(channel.oneToOne && ((error as { afresh?: boolean }).afresh || unknown));
          // A participant's new keys not accepted yet (a list signed with them): the conversation's
          // key-change notice says so, its history shows (mls.client.ts), and it opens once they are.
          setAfresh(offered && !waitsForKeysIn(channel.id) ? why : null);
          // (a sealed channel whose password this device lacks: the conversation says "Join the channel
          // again with its password", not that it should try again; it opens once joined, or once the
          // keyring brought the password, tried again as below)
          if (!channel.direct && !getChannelPassword(channel.id)) {
            const joined = on("conversation:joined", (id) => id === channel.id && setAttempt((n) => n + 1));
            const later = openAgainLater(attempt, channel.id, () => setAttempt((n) => n + 1));
            unsubscribe = () => (joined(), later());
            return;
          }
          if (waitsForKeysIn(channel.id)) {
            unsubscribe = subscribePins(() => {
              if (waitsForKeysIn(channel.id)) return;
              unsubscribe();
              setAttempt((n) => n + 1);
            });
            return;
          }
          // Said once; tried again (a request that failed for a moment, an answer lost on the way):
          // the page's other paths may have opened it meanwhile, and this page then has its runtime.
          if (!offered && (attempt === 0 || failedAt.current !== channel.id)) onError(why);
          failedAt.current = channel.id;
          unsubscribe = openAgainLater(attempt, channel.id, () => setAttempt((n) => n + 1));
        });
      },
    );
    return () => {
      live = false;
      unsubscribe();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a list refresh keeps the same channel
  }, [user, channel?.id, channel?.sealed, attempt]);

  // The user's archive gave messages this page counted as unreadable (another of their devices kept
  // them a moment after this one joined): the history reads their texts again.
  const restored = status?.restored ?? 0;
  useEffect(() => {
    if (restored > 0) onOpenedAgain();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- (each new restoring, not each new callback)
  }, [runtime, restored]);
  // (kept there later, live: a message read on another device once its sender's new keys were accepted)
  useEffect(() => on("archive:grew", (channelId) => channelId === runtime?.channel.id && runtime.archiveLater(true)), [runtime]);

  // The member list is loaded (it always holds the viewer): leaves of anyone else go. Looked at again
  // when a member's keys change (their reset: a list they signed with the old keys is signed again here,
  // and their new device gets in with this page simply open, ADR 0051).
  const memberIds = members.map((m) => m.userId).join(",");
  const [keysChanged, setKeysChanged] = useState(0);
  useEffect(() => on("keys:changed", (id) => memberIds.split(",").includes(id) && setKeysChanged((n) => n + 1)), [memberIds]);
  useEffect(() => {
    if (!runtime || !memberIds.split(",").includes(user.id)) return;
    runtime
      .reconcile(memberIds.split(","), deactivatedAmong)
      .catch((error) => console.warn("Removed members' devices could not be removed yet", error));
  }, [runtime, memberIds, user.id, keysChanged]);

  // Removed from a direct conversation whose user is a member again: a participant's page may be
  // listing this device again right now, so it tries to get back in (1 s, doubling, for half a minute).
  const outOfDirect = Boolean(runtime && (status?.removed || status?.letBackBy) && channel?.direct);
  // (and at once when the group moves: the other person's page letting them back in, ADR 0098)
  useEffect(() => {
    if (!runtime || !outOfDirect || !channel) return;
    return on("conversation:epoch", (event) => event.channelId === channel.id && void runtime.sync().catch(() => undefined));
  }, [runtime, outOfDirect, channel]);
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
      onError(words({ direct: channel?.direct }).keysFailed);
    } finally {
      setBusy(false);
    }
  }, [runtime, onError, channel?.direct]);

  const [resetting, setResetting] = useState(false);
  /** The creator's reset (ADR 0049): true once the new group is in place. */
  const resetEncryption = useCallback(async () => {
    if (!runtime) return false;
    setResetting(true);
    try {
      await runtime.resetEncryption();
      return true;
    } catch (error) {
      console.warn("The encryption could not be reset", error);
      onError("The encryption could not be reset. Please try again.");
      return false;
    } finally {
      setResetting(false);
    }
  }, [runtime, onError]);

  const refresh = useCallback(() => void runtime?.sync().catch(() => undefined), [runtime]);

  const [startingAfresh, setStartingAfresh] = useState(false);
  /** A new group in place of the one nobody can open, with the two of them on its list (ADR 0098); then opened again. */
  const startAfresh = useCallback(async () => {
    if (!channel) return;
    setStartingAfresh(true);
    try {
      await startAfreshHere(user, channel, proofOf(channel));
      setAfresh(null);
      setAttempt((n) => n + 1);
    } catch (error) {
      console.warn("The conversation could not be started afresh", error);
      onError("The conversation could not be started afresh. Please try again.");
    } finally {
      setStartingAfresh(false);
    }
  }, [user, channel, proofOf, onError]);

  const [lettingIn, setLettingIn] = useState(false);
  /** A one-to-one's other person, back on the server, put on its list again by this page (ADR 0098). */
  const letBackIn = useCallback(async () => {
    const returning = runtime?.status.returning ?? [];
    if (!runtime || returning.length === 0) return;
    setLettingIn(true);
    try {
      await runtime.changeParticipants({ add: returning });
    } catch (error) {
      console.warn("The list of participants could not be changed", error);
      onError("They could not be let back in. Please try again.");
    } finally {
      setLettingIn(false);
    }
  }, [runtime, onError]);

  const since = members.find((m) => m.userId === user.id)?.joined;
  return {
    status,
    busy,
    updateKeys,
    // The conversation's creator, or a workspace administrator in it (the server checks both).
    canReset: Boolean(runtime && channel && (channel.createdBy === user.id || isAdminRole(role))),
    resetting,
    resetEncryption,
    refresh,
    // (nobody is let back into a one-to-one whose other person is deactivated or gone: its page may list them a moment
    // longer; nor is anyone the live stream said was deactivated, before the conversation's list says so)
    returning:
      channel?.partnerDeactivated || channel?.partnerDeleted ? [] : (status?.returning ?? []).filter((id) => !knownDeactivated(id)),
    removedByAdmin: status?.removedByAdmin,
    partnerGone: Boolean(status?.partnerGone),
    afresh,
    startingAfresh,
    startAfresh,
    lettingIn,
    letBackIn,
    direct: Boolean(channel?.direct),
    notice:
      describe?.(
        status,
        // (a direct conversation names its participants itself: its members may not be read yet)
        (id) => members.find((m) => m.userId === id)?.username ?? channel?.participants?.find((p) => p.id === id)?.username ?? "someone",
        Boolean(channel?.direct),
        // (the user's own membership: what was sent before it no device of theirs can read)
        runtime && since ? runtime.sentBeforeMember(since) : 0,
      ) ?? null,
  };
}
