import { useCallback, useMemo, useRef } from "react";
import type { SessionUser } from "~/lib/session-user";
import type { Channel } from "~/conversation/channels/types";
import type { LiveEvent } from "~/features/live/types";
import { useLiveEvents } from "~/features/live/useLiveEvents.client";
import { type DecryptedMessage } from "~/features/messages/messages.client";
import { decryptMessages } from "~/conversation/messages/open.client";
import type { useChannelHistory } from "~/features/messages/useChannelHistory.client";
import type { EncryptedMessage } from "~/conversation/messages/types";
import { typingArrived, typingEnded } from "~/features/typing/typing.client";
import { threadsChanged } from "~/features/threads/seen.client";
import { replyDeleted, threadPeopleArrived } from "~/features/threads/summaries.client";
import { emit } from "~/lib/events";
import { callArrived } from "~/features/calls/ring.client";
import { memberDeactivated } from "~/features/deactivation/removal.client";
import { removalBurst } from "~/features/deactivation/burst";
import { groupReset } from "~/conversation/mls/sealed.client";
import { requestsChanged } from "~/features/requests/changes.client";
import { membersChanged } from "~/features/messages/useSend.client";
import { deviceLinksChanged } from "~/features/device-link/changes.client";
import { arrivalsAhead } from "~/features/workspace/arrivals-ahead";
import { standingChanged } from "~/features/roles/standing.client";
import { rulesChanged } from "~/features/notify-rules/rules.client";
import { deactivatedLive, forgetProfile } from "~/conversation/senders/profiles.client";
import { pinsSavedElsewhere } from "~/conversation/senders/pins.client";
import { relabelMembers } from "~/features/members/notices";
import { refreshRetention } from "~/features/retention/retention.client";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";

/** The retention policy read again, once a conversation being opened has shown its first page (which goes first). */
const retentionAgain = () => afterConversationShown().then(() => refreshRetention(true));

interface Parts {
  channels: Channel[] | null;
  selected: Channel | null;
  /** Reloads the list (and what depends on it); answers the list, or null when it could not load. */
  reloadChannels: () => Promise<Channel[] | null>;
  history: ReturnType<typeof useChannelHistory>;
  notifications: { wanted: () => boolean; notifyAbout: (channel: Channel, message: DecryptedMessage) => void };
  unread: {
    arrived: (channelId: string, created: string, message: DecryptedMessage | null) => void;
    /** The count of a channel changed other than by a new message: read again from the server. */
    changedElsewhere: (channelId: string) => void;
  };
  refreshMembers: () => Promise<unknown>;
  /** An admin removed the user from the channel: the page says so. */
  removedFrom: (channelId: string) => void;
  /** The local search index: every channel's new messages and edits, and deleted messages. */
  search?: { message: (message: EncryptedMessage) => Promise<void>; deleted: (messageId: string) => void };
}

/** Dispatches the page's live events to the features they concern. */
export function useWorkspaceLive(user: SessionUser, parts: Parts) {
  const partsRef = useRef(parts);
  partsRef.current = parts;
  // A burst of membership changes (someone deactivated from many conversations): each conversation's
  // removal runs once, and the lists reload once, after the removals (ADR 0056).
  const burst = useMemo(() => removalBurst(), []);
  // The list as the last reload answered it (the state the parts carry follows at the next render).
  const listed = useRef<Channel[] | null>(null);
  const ahead = useMemo(() => arrivalsAhead<EncryptedMessage>(), []);
  // The stream's first "sync" follows the page's own reading of the role and the notification choices;
  // a later one (the stream came back) may follow a change it missed.
  const synced = useRef(false);

  /** A message of someone else in another of the user's conversations: decrypted to notify (or offer it). */
  const noticed = useCallback(
    async (message: EncryptedMessage, other: Channel, count: boolean) => {
      const { notifications, unread } = partsRef.current;
      // a reply in a thread: no unread count in the channel, but a notification for those it is for
      if (message.kind === "reply") {
        const [reply] = notifications.wanted() ? await decryptMessages(user, other, [message]) : [];
        if (reply) notifications.notifyAbout(other, reply);
        return;
      }
      if (message.kind) return;
      const [decrypted] = await decryptMessages(user, other, [message]);
      if (count) unread.arrived(other.id, message.created, decrypted ?? null);
      // (also when nothing notifies yet: a direct message or a mention offers notifications)
      if (decrypted) notifications.notifyAbout(other, decrypted);
    },
    [user],
  );

  const reload = useMemo(
    () =>
      burst.afterBurst(async () => {
        requestsChanged();
        const list = await partsRef.current.reloadChannels();
        if (!list) return;
        listed.current = list;
        // messages that came before their conversation was listed (the reload has counted them)
        const byId = new Map(list.map((c) => [c.id, c]));
        for (const message of ahead.take((id) => byId.has(id))) await noticed(message, byId.get(message.channelId)!, false);
      }),
    [burst, ahead, noticed],
  );

  const onEvent = useCallback(
    async (event: LiveEvent) => {
      const { channels, selected, history, notifications, unread } = partsRef.current;
      switch (event.type) {
        case "sync":
          deviceLinksChanged();
          if (synced.current) void Promise.all([standingChanged(user.id), rulesChanged(user.id), retentionAgain()]);
          synced.current = true;
          await reload();
          await history.resync();
          return;
        case "memberships":
          burst.noted();
          await reload();
          return;
        case "removed":
          partsRef.current.removedFrom(event.channelId);
          return;
        case "device-links":
          deviceLinksChanged();
          return;
        case "standing":
          await standingChanged(user.id);
          return;
        case "notify-rules":
          await rulesChanged(user.id);
          return;
        case "retention":
          return retentionAgain();
        case "threads-seen":
          threadsChanged();
          return;
        case "members":
          membersChanged();
          await partsRef.current.refreshMembers();
          // (a direct conversation open: its header names its participants; a one-to-one whose other person
          // was deactivated: reactivated, they may be back in it, ADR 0098)
          if (selected?.direct || channels?.some((c) => c.partnerDeactivated)) await reload();
          return;
        case "message": {
          partsRef.current.search?.message(event.message).catch((error) => console.warn("Could not index a message", error));
          if (event.message.thread) threadsChanged();
          threadPeopleArrived(event.message, user.id);
          if (selected && event.message.channelId === selected.id) {
            if (!event.message.kind || event.message.kind === "reply") typingEnded(selected.id, event.message.senderId);
            const received = await history.receive(event.message);
            if (received && !received.own) {
              notifications.notifyAbout(selected, received);
              if (!received.threadOnly) unread.arrived(selected.id, received.created, received);
            }
            return;
          }
          // Another of the user's channels: decrypted to count it (and its mentions) and to decide about a notification.
          if (event.message.senderId === user.id) return;
          const id = event.message.channelId;
          const other = channels?.find((c) => c.id === id) ?? listed.current?.find((c) => c.id === id);
          if (other) await noticed(event.message, other, true);
          else ahead.keep(event.message);
          return;
        }
        case "message-deleted":
          partsRef.current.search?.deleted(event.messageId);
          history.remove(event.messageId);
          emit("message:deleted", { channelId: event.channelId, messageId: event.messageId, thread: event.thread });
          if (event.thread) replyDeleted(event.thread, event.messageId);
          // (a thread's first message deleted takes its replies along: the Threads view reads again)
          threadsChanged();
          return;
        case "gone":
          // (a sweep's batch or a member's deletion, in whatever conversation: the open one's list follows
          // its "message-deleted" events)
          for (const id of event.messageIds) partsRef.current.search?.deleted(id);
          return;
        case "unread":
          unread.changedElsewhere(event.channelId);
          return;
        case "archive":
          return emit("archive:grew", event.channelId);
        case "key-pins":
          return pinsSavedElsewhere(user.id, event.counter);
        case "keys":
          // (their reset: the profile this page kept holds their keys of before, ADR 0051)
          forgetProfile(event.userId);
          return emit("keys:changed", event.userId);
        case "attachment":
          return history.receivePart({ attachment: event.attachment });
        case "preview":
          return history.receivePart({ preview: event.preview });
        case "typing":
          return typingArrived(event);
        case "call": {
          const conversation = channels?.find((c) => c.id === event.channelId);
          if (conversation) callArrived(user, conversation, event);
          return;
        }
        case "member-deactivated": {
          deactivatedLive(event.userId);
          emit("member:deactivated", event.userId);
          const conversation = channels?.find((c) => c.id === event.channelId);
          if (conversation)
            await burst
              .remove(`${event.channelId}:${event.userId}`, () => memberDeactivated(user, conversation, event))
              .catch((error) => console.warn("A deactivated member's devices could not be removed yet", error));
          else burst.noted();
          return;
        }
        case "member-reactivated":
          // (a one-to-one with them said they were deactivated and had no box: the list says what it is now;
          // their shown messages are named plainly again)
          deactivatedLive(event.userId, false);
          relabelMembers(history, [{ userId: event.userId, username: event.name }], false);
          await reload();
          return;
        case "epoch":
          emit("conversation:epoch", { channelId: event.channelId, epoch: event.epoch });
          return;
        case "group-reset":
          groupReset(user.id, event.channelId);
          // (a page that could not open the conversation tries its new group at once, ADR 0098)
          emit("conversation:epoch", { channelId: event.channelId, epoch: 0 });
          return;
      }
    },
    [user, reload, burst, noticed, ahead],
  );

  // (an event a feature could not handle, such as a message of a conversation this device cannot
  // open, is logged and the next one handled as usual)
  return useLiveEvents(parts.selected?.id ?? null, (event) =>
    onEvent(event).catch((error) => console.warn(`A live ${event.type} event could not be handled`, error)),
  );
}
