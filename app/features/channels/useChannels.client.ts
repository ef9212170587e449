import { useCallback, useEffect, useRef, useState } from "react";
import { ChatError, messageOf } from "~/lib/errors";
import { ApiError, refusalOf } from "~/lib/api.client";
import type { SessionUser } from "~/lib/session-user";
import { RetryId } from "~/lib/retry-id";
import { clearPendingInvite, getChannelPassword, getPendingInvite, removeChannelPassword } from "~/lib/storage.client";
import type { Notify } from "~/ui/Toast";
import {
  createChannel,
  createShareLink,
  sharePassword,
  deleteChannel,
  joinChannel,
  joinWithInvite,
  leaveChannel,
  listChannels,
} from "~/features/channels/channels.client";
import type { Channel } from "~/conversation/channels/types";
import { channelKey, openKeyring } from "~/conversation/channels/secrets.client";
import { forgetHistory } from "~/conversation/messages/history-cache.client";
import { mayJoin } from "~/features/invites/landing.client";
import { askInviteLimits } from "~/features/invites/ask.client";
import { copyToClipboard } from "~/ui/clipboard.client";
import { currentPlace, goTo, useAddress, type Move } from "~/features/address/address.client";
import { HOME } from "~/features/address/address";
import { conversationAdded } from "~/conversation/conversation.client";

/**
 * What the page does once a channel is created or joined on this device: a sealed channel's group is
 * made now (if that fails, the first opening makes it), and a device a commit removed may join again.
 */
export type ChannelReady = (channel: Channel, how: "created" | "joined", participants?: readonly string[]) => Promise<void>;

/**
 * The user's channels (spec §2.4, §4): the list, the open channel, invite auto-join, and the actions on
 * channels. Channel keys are derived in the background once the list is known.
 */
export function useChannels(user: SessionUser, notify: Notify) {
  // what a conversation added to the list needs of its crypto (a new one: its group)
  const ready: ChannelReady = conversationAdded(user);
  const [channels, setChannels] = useState<Channel[] | null>(null);
  // The open conversation is the one the address names (ADR 0061); opening one is a move in history.
  const selectedId = useAddress().place.conversationId;
  const setSelectedId = useCallback((id: string | null, how?: Move) => {
    if (id !== currentPlace().conversationId) goTo(id ? { ...HOME, conversationId: id } : HOME, how);
  }, []);
  const selected = channels?.find((c) => c.id === selectedId) ?? null;

  // The keyring is opened before the list is shown, so every channel reads at once on any device.
  // Reloads can overlap (a live event during a create): only the latest one's list is shown.
  const latestReload = useRef(0);
  /** The names of groups the page has read (`rename`), by conversation. */
  const learned = useRef(new Map<string, string>());
  const reload = useCallback(async () => {
    const ticket = ++latestReload.current;
    try {
      const list = await listChannels();
      await openKeyring(
        user.id,
        list.map((c) => c.id),
      ).catch((error) => console.warn("Could not open the keyring", error));
      if (ticket !== latestReload.current) return null;
      // (a group's name the page has read stays over the server's, its participants' names: shown for a
      // moment, it moved the list and named the group otherwise)
      const named = list.map((c) => (learned.current.has(c.id) ? { ...c, name: learned.current.get(c.id)! } : c));
      setChannels(named);
      return named;
    } catch (error) {
      console.warn("Could not load channels", error);
      setChannels((current) => current ?? []);
      return null;
    }
  }, [user.id]);

  /** A conversation called by a name the page has read (a group's, inside its group). */
  const rename = useCallback((id: string, name: string) => {
    learned.current.set(id, name);
    setChannels((current) => current?.map((c) => (c.id === id ? { ...c, name } : c)) ?? current);
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  // PBKDF2 is deliberately slow: derive keys in the background so opening a channel does not wait for it.
  useEffect(() => {
    if (!channels) return;
    let stop = false;
    void (async () => {
      for (const channel of channels.filter((c) => !c.direct).slice(0, 30)) {
        if (stop) return;
        await channelKey(channel).catch(() => null);
      }
    })();
    return () => {
      stop = true;
    };
  }, [channels]);

  // A channel that disappears while open (deleted by its creator, or left elsewhere) is closed. An
  // address naming one that was never in the list is not: the page says it is not available.
  // (one this page is deleting or leaving is closed without a word: its list may come back without
  // it, from the live stream, before the request's answer)
  const shown = useRef<string | null>(null);
  const removing = useRef(new Set<string>());
  useEffect(() => {
    if (selected || !selectedId) shown.current = selected?.id ?? null;
    else if (channels && selectedId && shown.current === selectedId) {
      shown.current = null;
      setSelectedId(null, { replace: true });
      if (!removing.current.delete(selectedId)) notify("That channel is no longer available.");
    }
  }, [channels, selected, selectedId, setSelectedId, notify]);

  /** An admin removed the user from a channel: they are told so (and not that it is "no longer available"). */
  const removedFrom = useCallback(
    (id: string) => {
      const channel = channels?.find((c) => c.id === id);
      if (!channel) return;
      // (the open one closes as the list comes back without it)
      if (id === currentPlace().conversationId) removing.current.add(id);
      notify(`You were removed from #${channel.name}.`);
    },
    [channels, notify],
  );

  /** Opens a channel just created or joined, once the page has made it ready. */
  const readyRef = useRef(ready);
  readyRef.current = ready;
  const afterward = useCallback(
    async (loaded: Channel[] | null, id: string, how: "created" | "joined", participants?: readonly string[], move?: Move) => {
      // A reload that overlapped this one (a live event) is still on its way: the list is loaded again,
      // or the new channel would be opened while the list shown does not hold it yet (and be closed).
      let list = loaded;
      for (let attempt = 0; !list && attempt < 3; attempt++) list = await reload();
      const channel = list?.find((c) => c.id === id);
      removing.current.delete(id);
      if (channel)
        await readyRef
          .current(channel, how, participants)
          .catch((error) => console.warn("The channel is not ready on this device yet", error));
      setSelectedId(id, move);
    },
    [reload, setSelectedId],
  );

  // Invite auto-join, once the channel list has loaded (spec §4). Its channel opens behind what the
  // page asks on arrival (the recovery key offered at sign-up), never closing it unanswered.
  const inviteHandled = useRef(false);
  useEffect(() => {
    if (!channels || inviteHandled.current) return;
    inviteHandled.current = true;
    const invite = getPendingInvite();
    if (!invite) return;
    clearPendingInvite();
    if (channels.some((c) => c.id === invite.channelId) && getChannelPassword(invite.channelId)) {
      setSelectedId(invite.channelId, { behind: true });
      return;
    }
    void (async () => {
      try {
        if (!(await mayJoin(invite))) return;
        const joined = await joinWithInvite(user, invite.channelId, invite.encryptedPassword, invite.inviteId);
        await afterward(await reload(), joined.id, "joined", undefined, { behind: true });
      } catch (error) {
        notify(messageOf(error, "Failed to join channel"), "error");
      }
    })();
  }, [channels, user, reload, notify, afterward, setSelectedId]);

  const removeFromList = useCallback(
    (ids: string[]) => {
      for (const id of ids) {
        removeChannelPassword(id);
        forgetHistory(id);
      }
      setChannels((current) => current?.filter((c) => !ids.includes(c.id)) ?? current);
      const current = currentPlace().conversationId;
      if (current && ids.includes(current)) setSelectedId(null, { replace: true });
    },
    [setSelectedId],
  );

  // A create asked again with the same values after one that got no answer keeps its id: the server
  // answers the channel it may have made then, instead of a second one.
  const unanswered = useRef(new RetryId());
  const create = async (values: { name: string; password: string; sealed: boolean }) => {
    const id = unanswered.current.for(JSON.stringify([values.name.trim(), values.password, values.sealed]));
    await createChannel(user, values.name, values.password, values.sealed, id);
    unanswered.current.answered();
    await afterward(await reload(), id, "created");
  };

  const join = async (values: { channelId: string; password: string }) => {
    const joined = await joinChannel(user, values.channelId, values.password);
    await afterward(await reload(), joined.id, "joined");
  };

  /** Deletes a channel the user created, or leaves one they joined. */
  const remove = async (channel: Channel, how: "delete" | "leave") => {
    removing.current.add(channel.id);
    try {
      await (how === "delete" ? deleteChannel(channel.id) : leaveChannel(channel.id));
    } catch {
      removing.current.delete(channel.id);
      throw new ChatError(how === "delete" ? "Failed to delete channel" : "Failed to leave channel");
    }
    removeFromList([channel.id]);
  };

  const removeAll = async () => {
    const done: string[] = [];
    let failed = 0;
    // Direct conversations are not channels: they stay.
    for (const channel of channels?.filter((c) => !c.direct) ?? []) {
      try {
        await (channel.createdBy === user.id ? deleteChannel(channel.id) : leaveChannel(channel.id));
        done.push(channel.id);
      } catch {
        failed += 1;
      }
    }
    removeFromList(done);
    await reload();
    if (failed) throw new ChatError(`${failed} channel(s) could not be removed. Please try again.`);
  };

  /** Makes an invite with the expiry and uses the person chooses, and copies its link. */
  const share = async (channel: Channel) => {
    // without the password on this device there is nothing to share: said before asking anything
    try {
      sharePassword(channel.id);
    } catch (error) {
      return notify(messageOf(error, "Failed to create share link. Please try again."), "error");
    }
    const limits = await askInviteLimits(channel.name, channel.sealed, channel.id);
    if (!limits) return;
    let link: string;
    try {
      link = await createShareLink(channel.id, channel.name, limits);
    } catch (error) {
      // the server refused or was unreachable: trying again may do; anything else is a failure of this
      // page (sealing the password, building the link), written to the console for whoever looks
      // (the spec's words, except for one invite too many this hour: that says when, not "try again")
      if (error instanceof ApiError && error.status === 429) return notify(refusalOf(error, ""), "error");
      if (error instanceof ChatError || error instanceof ApiError) {
        return notify(messageOf(error, "Failed to create share link. Please try again."), "error");
      }
      console.error("Creating the share link failed:", error);
      return notify("Failed to create share link. Please check the console for details.", "error");
    }
    await copyText(
      link,
      "Invite link copied to the clipboard. Anyone with this link can join the channel.",
      `Copy this invite link: ${link}`,
      notify,
    );
  };

  const copyId = (channel: Channel) => copyText(channel.id, "Channel ID copied to the clipboard.", `Channel ID: ${channel.id}`, notify);

  /** Opens a channel or conversation just made or joined elsewhere (a direct conversation), once ready. */
  const openReady = useCallback(
    async (id: string, how: "created" | "joined", participants?: readonly string[]) => afterward(await reload(), id, how, participants),
    [afterward, reload],
  );

  return {
    channels,
    selected,
    selectedId,
    setSelectedId,
    reload,
    rename,
    create,
    join,
    remove,
    removeAll,
    share,
    copyId,
    openReady,
    removedFrom,
  };
}

async function copyText(text: string, copied: string, fallback: string, notify: Notify) {
  notify((await copyToClipboard(text)) ? copied : fallback);
}
