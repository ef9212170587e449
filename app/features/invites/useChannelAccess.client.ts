import { useCallback, useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import type { ChannelAccess } from "~/features/invites/types";

/**
 * What the signed-in person may manage in a channel (its invites, bans and channel admins), read again
 * whenever `version` changes (the members list did), and the actions on them.
 */
export function useChannelAccess(channelId: string | null, version: unknown) {
  const [access, setAccess] = useState<ChannelAccess>({ manage: "" });
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    if (!channelId) return setAccess({ manage: "" });
    try {
      setAccess(await api<ChannelAccess>(`/api/channels/${channelId}/access`));
    } catch (failure) {
      console.warn("The channel's invites could not be loaded", failure);
    }
  }, [channelId]);

  useEffect(() => {
    void refresh();
  }, [refresh, version]);

  const run = async (path: string, body: unknown, failure: string) => {
    setError(null);
    try {
      await api(path, body);
    } catch {
      setError(failure);
    }
    await refresh();
  };

  return {
    access,
    error,
    revoke: (inviteId: string) => run(`/api/invites/${inviteId}/revoke`, {}, "The invite could not be revoked. Please try again."),
    liftBan: (userId: string, username: string) =>
      run(`/api/channels/${channelId}/bans/${userId}/lift`, {}, `The ban on ${username} could not be lifted. Please try again.`),
    setAdmin: (userId: string, admin: boolean) =>
      run(`/api/channels/${channelId}/members/${userId}/admin`, { admin }, "The channel admin could not be changed. Please try again."),
  };
}

export type ChannelAccessState = ReturnType<typeof useChannelAccess>;
