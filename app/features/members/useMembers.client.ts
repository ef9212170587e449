import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ChannelMember, MemberNotice } from "~/features/members/types";
import { deactivatedAmong, membershipNotices } from "~/features/members/notices";
import { afterConversationShown } from "~/features/messages/conversation-shown.client";
import { shareCardWith } from "~/features/profile-cards/own.client";
import { noteUsernames } from "~/features/profile-cards/cards.client";

/** The open channel's members (for the Members panel and @ suggestions); the creator removes members. */
/**
 * `onDeactivated`: people of the open conversation an administrator deactivated (their messages are
 * shown so, ADR 0056), or (`deactivated` false) people who joined it, back if they were. In an MLS
 * conversation (`sealed`) the group's own notice says they were removed.
 */
export function useMembers(
  channelId: string | null,
  kind: { direct?: boolean; sealed?: boolean; onDeactivated?: (people: readonly ChannelMember[], deactivated: boolean) => void } = {},
) {
  const { direct = false, sealed = false, onDeactivated } = kind;
  const deactivatedRef = useRef(onDeactivated);
  deactivatedRef.current = onDeactivated;
  const [members, setMembers] = useState<ChannelMember[]>([]);
  // "bob joined the channel" / "bob left the channel" ("... the conversation, added by alice" in a
  // direct conversation), seen while it is open.
  const [notices, setNotices] = useState<MemberNotice[]>([]);
  const shown = useRef<{ channelId: string; members: ChannelMember[] } | null>(null);

  // Loads can overlap (opening the panel during a live update): only the latest answer is shown.
  const latest = useRef(0);
  const refresh = useCallback(async () => {
    const ticket = ++latest.current;
    if (!channelId) return setMembers([]);
    try {
      const { members: found } = await api<{ members: ChannelMember[] }>(`/api/channels/${channelId}/members`);
      if (ticket !== latest.current) return;
      const before = shown.current?.channelId === channelId ? shown.current.members : null;
      shown.current = { channelId, members: found };
      setMembers(found);
      noteUsernames(found);
      void shareCardWith(found.map((m) => m.userId));
      if (before) {
        const at = new Date().toISOString();
        const gone = before.filter((m) => !found.some((f) => f.userId === m.userId)).map((m) => m.userId);
        const deactivated = await deactivatedAmong(gone).catch(() => new Set<string>());
        const fresh = membershipNotices(before, found, at, direct, deactivated).filter(
          // (an MLS conversation says it itself, once its devices are out: conversation/mls/notice.ts)
          (notice) => !(sealed && notice.id.startsWith("removed:")),
        );
        if (fresh.length) setNotices((current) => [...current, ...fresh]);
        if (deactivated.size > 0)
          deactivatedRef.current?.(
            before.filter((m) => deactivated.has(m.userId)),
            true,
          );
        // (someone named "(deactivated)" here who is a member again was reactivated)
        const back = found.filter((f) => !before.some((m) => m.userId === f.userId));
        if (back.length > 0) deactivatedRef.current?.(back, false);
      }
    } catch (error) {
      console.warn("Members could not be loaded", error);
    }
  }, [channelId, direct, sealed]);

  useEffect(() => {
    setMembers([]);
    setNotices([]);
    shown.current = null;
    // (once the conversation's first page is drawn: the page goes first; the panel asks at once when opened)
    let current = true;
    const ticket = latest.current;
    void afterConversationShown().then(() => (current && latest.current === ticket ? refresh() : undefined));
    return () => void (current = false);
  }, [refresh]);

  const remove = async (member: ChannelMember) => {
    try {
      await api(`/api/channels/${channelId}/members/${member.userId}/remove`, {});
    } catch {
      throw new ChatError(`${member.username} could not be removed. Please try again.`);
    }
    setMembers((current) => current.filter((m) => m.userId !== member.userId));
  };

  return { members, notices, refresh, remove };
}
