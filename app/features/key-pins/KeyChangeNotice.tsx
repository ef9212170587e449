import { useEffect } from "react";
import { lazyPart } from "~/ui/lazyPart";
import type { SessionUser } from "~/lib/session-user";
import { checkKeys } from "~/conversation/senders/pins.client";
import { senderProfiles } from "~/conversation/senders/profiles.client";
import { usePins } from "~/features/key-pins/usePins.client";
import { on } from "~/lib/events";

// The notices themselves load when there is one to show.
const KeyChanges = lazyPart(() => import("~/features/key-pins/KeyChanges").then((m) => m.KeyChanges));

interface Props {
  user: SessionUser;
  channelId: string;
  /** The channel's members: their keys are pinned on first sight, or checked against the pins. */
  memberIds: readonly string[];
  /**
   * Reads the conversation again: once new keys are accepted (the held-back messages show), and when a
   * member's keys change while it is open (what it shows of theirs is held back, as a reload would).
   */
  onReadAgain: () => void;
}

/** "bob's security keys changed": shown in a channel where someone's messages are held back for that reason. */
export function KeyChangeNotice({ user, channelId, memberIds, onReadAgain }: Props) {
  const { changed, held } = usePins();
  const members = memberIds.join(",");
  // A member's reset, told live (ADR 0051): their keys of now are checked at once, and the notice shows
  // without waiting for a message of theirs.
  useEffect(
    () =>
      on("keys:changed", (id) => {
        if (id === user.id || !members.split(",").includes(id)) return;
        senderProfiles([id])
          .then((found) => {
            const profile = found.get(id)?.profile;
            return profile ? checkKeys(user.id, [profile], channelId) : null;
          })
          .then((trusted) => trusted && !trusted.has(id) && onReadAgain())
          .catch((error) => console.warn("Members' keys could not be checked", error));
      }),
    [user.id, channelId, members, onReadAgain],
  );
  useEffect(() => {
    const ids = members ? members.split(",") : [];
    if (ids.length === 0) return;
    senderProfiles(ids)
      .then((found) =>
        checkKeys(
          user.id,
          [...found.values()].flatMap((p) => (p ? [p.profile] : [])),
          channelId,
        ),
      )
      .catch((error) => console.warn("Members' keys could not be checked", error));
  }, [user.id, channelId, members]);
  // (someone's new keys accepted on another device of the user: what they held here is read again)
  useEffect(() => on("key-pins:accepted-elsewhere", (channels) => channels.includes(channelId) && onReadAgain()), [channelId, onReadAgain]);
  const here = [...changed.values()].filter((c) => c.channels.has(channelId));
  if (here.length === 0) return null;
  return (
    <KeyChanges user={user} changes={here} heldOf={(userId) => held.get(`${channelId} ${userId}`)?.size ?? 0} onAccepted={onReadAgain} />
  );
}
