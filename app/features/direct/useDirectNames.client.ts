import { useEffect, useRef } from "react";
import type { SessionUser } from "~/lib/session-user";
import { ApiError } from "~/lib/api.client";
import type { Channel } from "~/conversation/channels/types";
import { conversationOf } from "~/conversation/conversation.client";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";
import { on } from "~/lib/events";
import { NAME_EXPORTER_LABEL, openName, sealName, sealedEpoch } from "~/features/direct/names";
import {
  fetchSealedName,
  knownName,
  loadNames,
  noteSealed,
  rememberName,
  seenSealed,
  storeSealedName,
} from "~/features/direct/names.client";

/**
 * When a page that cannot read a group's name yet asks again for one sealed for its epoch: soon, then
 * every 8 s for about five minutes (a participant's page seals it again once it sees the new epoch).
 */
const RETRIES_MS = [1_000, 2_000, 4_000, ...Array<number>(36).fill(8_000)];
/** Over how long the pages that know a group's name spread their sealing it again after a commit. */
const RESEAL_SPREAD_MS = 2_000;

/**
 * Group names inside their MLS groups (names.ts, ADR 0050): the page reads the name of every group
 * conversation it does not know the name of (opening its group, after the first page is drawn), and
 * for the open one, at each new epoch, seals the name it knows again when the server's copy is for an
 * older epoch, so that a device that joined since can read it. `learned` renames it in the list.
 */
export function useDirectNames(
  user: SessionUser,
  channels: Channel[] | null,
  selected: Channel | null,
  learned: (id: string, name: string) => void,
) {
  const learnedRef = useRef(learned);
  learnedRef.current = learned;
  const channelsRef = useRef(channels);
  channelsRef.current = channels;

  // The names this device has read already, over the server's (its participants' names).
  useEffect(() => {
    for (const c of channels ?? []) {
      const name = c.direct && !c.oneToOne ? knownName(user.id, c.id) : null;
      if (name && name !== c.name) learnedRef.current(c.id, name);
    }
  }, [user.id, channels]);

  // Those it kept are opened; each other group is read until it is, or the retries run out.
  const key = (channels ?? [])
    .filter((c) => c.direct && !c.oneToOne)
    .map((c) => c.id)
    .join(",");
  useEffect(() => {
    if (!key) return;
    let stopped = false;
    void (async () => {
      const ids = key.split(",");
      await loadNames(user.id, ids);
      // (the groups are opened once the open conversation's first page is drawn: it goes first)
      await afterConversationShown();
      for (const id of ids) {
        const name = knownName(user.id, id);
        if (name && !stopped) learnedRef.current(id, name);
      }
      await Promise.all(
        ids
          .filter((id) => !knownName(user.id, id))
          .map(async (id) => {
            for (let attempt = 0; !stopped && attempt <= RETRIES_MS.length; attempt++) {
              const channel = channelsRef.current?.find((c) => c.id === id);
              if (!channel || (await settle(user, channel, learnedRef.current).catch(() => false))) return;
              await new Promise((resolve) => setTimeout(resolve, RETRIES_MS[attempt] ?? 0));
            }
          }),
      );
    })();
    return () => void (stopped = true);
  }, [user, key]);

  // A group renamed (by anyone: the list reloads when a conversation changes) since this device read
  // its name: read again (docs/decisions/0076-export-and-group-renames.md).
  const sealedKey = (channels ?? [])
    .filter((c) => c.direct && !c.oneToOne && c.sealedName)
    .map((c) => `${c.id}=${c.sealedName}`)
    .join(",");
  useEffect(() => {
    if (!sealedKey) return;
    void (async () => {
      await afterConversationShown();
      for (const c of channelsRef.current ?? []) {
        if (!c.direct || c.oneToOne || !c.sealedName) continue;
        await loadNames(user.id, [c.id]);
        if (c.sealedName !== seenSealed(user.id, c.id) && knownName(user.id, c.id))
          await settle(user, c, learnedRef.current, c.sealedName).catch((error) =>
            console.warn("The group's new name could not be read", error),
          );
      }
    })();
  }, [user, sealedKey]);

  // A commit moved a group on (an external join: a participant's new device, which cannot read the
  // name sealed for the epoch before): a page that knows the name seals it again, open or not, after
  // a short random wait so that usually one page does it and the others find it done.
  useEffect(
    () =>
      on("conversation:epoch", ({ channelId }) => {
        const channel = channelsRef.current?.find((c) => c.id === channelId);
        if (!channel?.direct || channel.oneToOne || !knownName(user.id, channelId)) return;
        setTimeout(() => {
          // (not if the user left it meanwhile: this very commit may be their leaving)
          const still = channelsRef.current?.find((c) => c.id === channelId);
          if (still)
            void settle(user, still, learnedRef.current).catch((error) => console.warn("The group's name could not be kept", error));
        }, Math.random() * RESEAL_SPREAD_MS);
      }),
    [user],
  );

  // (the epochs' secrets are not kept past the session)
  useEffect(() => on("session:signing-out", () => secrets.clear()), []);

  // The open group: its name sealed again for every new epoch (whoever's page is open does it).
  const open = selected?.direct && !selected.oneToOne ? selected : null;
  useEffect(() => {
    if (!open) return;
    const conversation = conversationOf(user, open);
    const again = () =>
      void settle(user, open, learnedRef.current).catch((error) => console.warn("The group's name could not be kept", error));
    again();
    return conversation.watchKeys(again);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a list refresh keeps the same conversation
  }, [user, open?.id]);
}

/**
 * The secret names are sealed under at the group's current epoch; each one this page derived is kept
 * (per conversation and epoch, the latest few hundred, until sign-out), so that a name sealed for an
 * epoch the group has left can still be read here.
 */
const secrets = new Map<string, Uint8Array>();
async function nameSecret(user: SessionUser, channel: Channel): Promise<{ key: Uint8Array; epoch: number }> {
  const { key, epoch } = await conversationOf(user, channel).groupKey(NAME_EXPORTER_LABEL, channel.id);
  secrets.set(`${channel.id}:${epoch}`, key);
  if (secrets.size > 300) secrets.delete(secrets.keys().next().value!);
  return { key, epoch };
}

/**
 * Reads the group's name (true once this device knows it): the name sealed for the current epoch
 * wins over the one this device knew (a rename); and seals the name it knows for the current epoch
 * when the server keeps it for an older one (or not at all).
 */
async function settle(user: SessionUser, channel: Channel, learned: (id: string, name: string) => void, given?: string): Promise<boolean> {
  const sealed = given ?? (await fetchSealedName(channel.id));
  const known = knownName(user.id, channel.id);
  if (!sealed && !known) return false;
  const { key, epoch } = await nameSecret(user, channel);
  const at = sealed ? sealedEpoch(sealed) : null;
  if (sealed && at === epoch) {
    const name = await openName(key, channel.id, epoch, sealed);
    if (name) {
      noteSealed(user.id, channel.id, sealed);
      if (name !== known) {
        await rememberName(user.id, channel.id, name);
        learned(channel.id, name);
      }
      return true;
    }
  }
  // A rename sealed for an epoch the group has since left (someone added or removed people as it was
  // made) is carried on to the new epoch, not undone by the name this page knew before it.
  const earlier = sealed && at !== null && at < epoch ? secrets.get(`${channel.id}:${at}`) : undefined;
  const carried = earlier && sealed ? await openName(earlier, channel.id, at!, sealed) : null;
  if (carried && carried !== known) {
    await rememberName(user.id, channel.id, carried);
    learned(channel.id, carried);
  }
  // (the name this page knew only when the server's is the one it read or sealed itself: a rename it
  // could not read is left to a page that can)
  const name = carried ?? (!sealed || sealed === seenSealed(user.id, channel.id) ? known : null);
  if (!known && !name) return false;
  if (name && (at === null || at < epoch)) {
    const mine = await sealName(key, channel.id, epoch, name);
    // (not kept: another participant's page sealed it for this epoch first, or the group moved on and
    // the next epoch's turn carries it)
    if (await storeSealedName(channel.id, epoch, mine, true)) noteSealed(user.id, channel.id, mine);
  }
  return true;
}

/** Renames a group (anyone in it): the name sealed for the group's current epoch, kept on this device too. */
export async function renameGroup(user: SessionUser, channel: Channel, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { key, epoch } = await nameSecret(user, channel);
    const sealed = await sealName(key, channel.id, epoch, name);
    try {
      await storeSealedName(channel.id, epoch, sealed);
      noteSealed(user.id, channel.id, sealed);
      await rememberName(user.id, channel.id, name);
      return;
    } catch (error) {
      // the group moved on to a new epoch meanwhile: sealed again for it
      if (!(error instanceof ApiError && error.status === 409) || attempt >= 2) throw error;
    }
  }
}
