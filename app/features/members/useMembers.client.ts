import { useCallback, useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import { ChatError } from "~/lib/errors";
import type { ChannelMember } from "~/features/members/types";

/** The open channel's members (for the Members panel and @ suggestions); the creator removes members. */
export function useMembers(channelId: string | null) {
  const [members, setMembers] = useState<ChannelMember[]>([]);

  const refresh = useCallback(async () => {
    if (!channelId) return setMembers([]);
    try {
      setMembers((await api<{ members: ChannelMember[] }>(`/api/channels/${channelId}/members`)).members);
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
