import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ChannelMember } from "~/features/members/types";

/** The open channel's members (for the Members panel and @ suggestions); the creator removes members. */
export function useMembers(channelId: string | null) {
  const [members, setMembers] = useState<ChannelMember[]>([]);

  // Loads can overlap (opening the panel during a live update): only the latest answer is shown.
  const latest = useRef(0);
  const refresh = useCallback(async () => {
    const ticket = ++latest.current;
    if (!channelId) return setMembers([]);
    try {
      const { members: found } = await api<{ members: ChannelMember[] }>(`/api/channels/${channelId}/members`);
      if (ticket === latest.current) setMembers(found);
    } catch (error) {
      console.warn("Members could not be loaded", error);
    }
  }, [channelId]);

  useEffect(() => {
    setMembers([]);
    void refresh();
  }, [refresh]);

  const remove = async (member: ChannelMember) => {
    try {
      await api(`/api/channels/${channelId}/members/${member.userId}/remove`, {});
    } catch {
      throw new ChatError(`${member.username} could not be removed. Please try again.`);
    }
    setMembers((current) => current.filter((m) => m.userId !== member.userId));
  };

  return { members, refresh, remove };
}
