import { useCallback, useEffect, useRef, useState } from "react";
import { randomUuid } from "~/crypto";
import { ApiError } from "~/lib/api.client";
import { ChatError, messageOf } from "~/lib/errors";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import { sendMessage, type DecryptedMessage } from "~/features/messages/messages.client";
import { unionById } from "~/conversation/messages/merge";
import { dropMessage, keepMessage, keptMessages } from "~/features/messages/outbox-store.client";
import { emit, on } from "~/lib/events";
import { handOverOnLeave, onHandedOver } from "~/features/messages/outbox-handover.client";

interface History {
  /** The page's own sent message, shown at once (useChannelHistory's `addSent`). */
  addSent: (channelId: string, messages: DecryptedMessage[]) => void;
  update: (id: string, change: (m: DecryptedMessage) => DecryptedMessage) => void;
}

/** A message that could not be sent yet: kept, retried, and stored once (its client id) when it goes through. */
export interface PendingMessage {
  clientId: string;
  channel: Channel;
  text: string;
  replyTo?: string;
  error: string;
  /** Held until someone joins the direct conversation (ADR 0052), not failing. */
  held?: boolean;
}

const RETRY_MS = 5_000;
/** After a conversation's members changed, while a message is held: tried again after these delays. */
const NUDGE_MS = [1_000, 2_000, 3_500];

/** The live stream says a conversation's member list changed (someone accepted a request, ADR 0052). */
export const membersChanged = () => emit("members:changed");

const onMembersChanged = (listener: () => void) => on("members:changed", listener);

/**
 * The server could not take it now (unreachable, restarting, disk full, too fast), or nobody has joined
 * the direct conversation yet: worth another try.
 */
/** Held: nobody has joined yet (a request not accepted), or the other person has yet to let the user back in (ADR 0098). */
const held = (error: unknown) => error instanceof ChatError && error.held;
const retryable = (error: unknown) =>
  held(error) || (error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500));
/**
 * The server refused the message itself (bad, too big, not a member, gone): the only failure that
 * takes a message out of the outbox. A session that ended (401) or keys this page does not have yet
 * (after a sign-in, while signing out) leave it waiting for the next try.
 */
const refused = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
const reason = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : messageOf(error, fallback));

/**
 * Sending a text message to the open channel; its link preview follows when the server finds one. A
 * send the server could not take now waits in the outbox ("Not sent, retrying"), is retried every few
 * seconds and at each reconnect, and is stored once however often it is retried; a message sent while
 * others of its conversation wait goes after them. Every send is kept on the device (outbox-store)
 * until the server has it: after a closed tab, a restart or a crash the page sends what was left, once,
 * as soon as it knows the user's conversations (`channels`).
 */
export function useSend(user: SessionUser, channel: Channel | null, history: History, channels: readonly Channel[] | null) {
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [outbox, setOutbox] = useState<PendingMessage[]>([]);
  const outboxRef = useRef(outbox);
  outboxRef.current = outbox;
  const historyRef = useRef(history);
  historyRef.current = history;

  useEffect(() => setSendError(null), [channel?.id]);

  // Once signing out has begun nothing more is sent from here: the rows stay, sealed, for the next sign-in
  // (nor handed to another page: signing out ends the session for every page of the browser).
  const signingOut = useRef(false);
  useEffect(() => on("session:signing-out", () => (signingOut.current = true)), []);

  // (this page's messages not yet taken by the server: handed over if the page closes now)
  const onTheirWay = useRef(new Set<string>());
  const forget = useCallback(
    (clientId: string) => {
      onTheirWay.current.delete(clientId);
      void dropMessage(user.id, clientId).catch((error) => console.warn("A sent message stayed in the outbox", error));
    },
    [user.id],
  );

  // Kept messages go back into the outbox (`only`: those client ids), for the conversations the user is still in.
  const channelsRef = useRef(channels);
  channelsRef.current = channels;
  const [restoredAt, setRestoredAt] = useState(0);
  const takeKept = useCallback(
    async (only?: string[]) => {
      const kept = (await keptMessages(user.id)).filter((k) => !only || only.includes(k.clientId));
      const byId = new Map((channelsRef.current ?? []).map((c) => [c.id, c]));
      const waiting = kept.flatMap((k) => {
        const target = byId.get(k.channelId);
        if (!target && !only) forget(k.clientId); // the user left that conversation
        return target
          ? [{ clientId: k.clientId, channel: target, text: k.text, ...(k.replyTo ? { replyTo: k.replyTo } : {}), error: "" }]
          : [];
      });
      const fresh = waiting.filter((w) => !outboxRef.current.some((p) => p.clientId === w.clientId));
      if (fresh.length === 0) return;
      outboxRef.current = [...fresh, ...outboxRef.current];
      setOutbox((current) => [...fresh.filter((w) => !current.some((p) => p.clientId === w.clientId)), ...current]);
      setRestoredAt(Date.now());
    },
    [user.id, forget],
  );
  // What an earlier page left unsent goes once the page knows the user's conversations.
  const restored = useRef(false);
  useEffect(() => {
    if (!channels || restored.current) return;
    restored.current = true;
    takeKept().catch((error) => console.warn("The outbox could not be read", error));
  }, [channels, takeKept]);
  // What a page of this browser closing now leaves on its way goes from here at once (outbox-handover).
  useEffect(
    () => handOverOnLeave(user.id, () => (signingOut.current ? [] : [...onTheirWay.current, ...outboxRef.current.map((p) => p.clientId)])),
    [user.id],
  );
  useEffect(
    () =>
      onHandedOver(user.id, (ids) =>
        channelsRef.current ? takeKept(ids).catch((error) => console.warn("The outbox could not be read", error)) : Promise.resolve(),
      ),
    [user.id, takeKept],
  );

  const deliver = useCallback(
    async (pending: PendingMessage) => {
      const sent = await sendMessage(user, pending.channel, pending.text, pending.replyTo, pending.clientId);
      setOutbox((current) => current.filter((p) => p.clientId !== pending.clientId));
      forget(pending.clientId);
      historyRef.current.addSent(pending.channel.id, [sent]);
      // (the link preview's code loads with the first message sent)
      void import("~/features/link-previews/previews.client")
        .then((m) => m.attachLinkPreview(conversationOf(user, pending.channel), pending.channel, sent))
        .then((preview) => {
          if (preview) historyRef.current.update(sent.id, (m) => ({ ...m, previews: unionById(m.previews, [preview]) }));
        });
    },
    [user, forget],
  );

  const retryAll = useCallback(async () => {
    for (const pending of outboxRef.current) {
      if (signingOut.current) return;
      try {
        await deliver(pending);
      } catch (error) {
        const still = !refused(error) || signingOut.current;
        setOutbox((current) =>
          still
            ? current.map((p) => (p.clientId === pending.clientId ? { ...p, error: reason(error, p.error), held: held(error) } : p))
            : current.filter((p) => p.clientId !== pending.clientId),
        );
        if (!still) {
          forget(pending.clientId);
          setSendError(`${reason(error, "Failed to send message.")} This message was not sent: "${pending.text.slice(0, 80)}"`);
        }
        // (a conversation nobody joined yet holds only its own messages back)
        if (still && !held(error)) return;
      }
    }
  }, [deliver, forget]);

  // what was restored goes at once (the retry timer would wait its first interval)
  useEffect(() => {
    if (restoredAt) void retryAll();
  }, [restoredAt, retryAll]);

  const waiting = outbox.length > 0;
  const holding = outbox.some((p) => p.held);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void retryAll(), RETRY_MS);
    window.addEventListener("online", retryAll);
    // Held for a conversation nobody had joined: someone's membership changed, and their device joins
    // a moment later (ADR 0052), so it is tried again soon rather than at the next interval.
    const soon: ReturnType<typeof setTimeout>[] = [];
    const stop = holding ? onMembersChanged(() => NUDGE_MS.forEach((ms) => soon.push(setTimeout(() => void retryAll(), ms)))) : null;
    // (held for someone's new keys, ADR 0051: goes as soon as the user accepts them)
    const stopPins = holding ? on("key-pins:changed", () => void retryAll()) : null;
    return () => {
      clearInterval(timer);
      window.removeEventListener("online", retryAll);
      stop?.();
      stopPins?.();
      soon.forEach(clearTimeout);
    };
  }, [waiting, holding, retryAll]);

  async function send(text: string, replyTo?: string): Promise<boolean> {
    if (!channel || sending || !text.trim()) return false;
    setSending(true);
    setSendError(null);
    const pending: PendingMessage = { clientId: randomUuid(), channel, text, ...(replyTo ? { replyTo } : {}), error: "" };
    onTheirWay.current.add(pending.clientId);
    // kept before it leaves, so that nothing is lost if the page goes away while it travels
    const kept = keepMessage(user.id, { clientId: pending.clientId, channelId: channel.id, text, replyTo }).catch((error) =>
      console.warn("The message could not be kept on this device", error),
    );
    // Messages of this conversation still wait: this one goes after them, never before (the outbox is
    // tried at once, in order).
    const before = outboxRef.current.find((p) => p.channel.id === channel.id);
    if (before) {
      const queued = { ...pending, error: before.error, held: before.held };
      outboxRef.current = [...outboxRef.current, queued];
      setOutbox((current) => [...current, queued]);
      void kept.then(retryAll);
      setSending(false);
      return true;
    }
    try {
      await deliver(pending);
      void kept.then(() => forget(pending.clientId));
      return true;
    } catch (error) {
      // (a message held for someone to let it through is waiting, not failing: its line says so on the page)
      if (!held(error)) console.warn("Sending failed", error);
      if (retryable(error)) {
        setOutbox((current) => [...current, { ...pending, error: reason(error, "The server is unreachable."), held: held(error) }]);
        return true;
      }
      void kept.then(() => forget(pending.clientId));
      setSendError(`${reason(error, "Failed to send message.")} Your message was not sent and is still in the box.`);
      return false;
    } finally {
      setSending(false);
    }
  }

  const discard = (clientId: string) => {
    setOutbox((current) => current.filter((p) => p.clientId !== clientId));
    forget(clientId);
  };

  return { sending, sendError, send, outbox: outbox.filter((p) => p.channel.id === channel?.id), retryAll, discard };
}
