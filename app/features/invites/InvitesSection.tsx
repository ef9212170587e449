import { useCallback, useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { LoadFailed } from "~/ui/useLoad";
import { InviteList } from "~/features/invites/InviteList";
import type { InviteSummary } from "~/features/invites/types";

/**
 * The admin console's Invites section (app/features/admin/sections.ts, which gives it its heading): every
 * invite of the workspace, newest first, each with "Revoke" while it can still be used. The server answers
 * only owner and admins.
 */
export function InvitesSection() {
  const [invites, setInvites] = useState<InviteSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");

  const load = useCallback(async () => {
    try {
      setInvites((await api<{ invites: InviteSummary[] }>("/api/admin/invites")).invites);
      setError(null);
    } catch {
      setError("The invites could not be loaded. Please try again.");
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (invite: InviteSummary) => {
    setBusy(true);
    setError(null);
    setStatus("");
    try {
      await api(`/api/admin/invites/${invite.id}/revoke`, {});
      setStatus(`The invite to ${invite.channel_name ? `#${invite.channel_name}` : "a sealed channel"} was revoked.`);
    } catch {
      setError("The invite could not be revoked. Please try again.");
    }
    await load();
    setBusy(false);
  };

  return (
    <>
      {invites === null ? (
        error ? (
          <LoadFailed message={error} onRetry={() => void load()} />
        ) : (
          <p className="hint">Loading invites...</p>
        )
      ) : (
        <FormError message={error} />
      )}
      <p className="admin-status" role="status">
        {status}
      </p>
      {invites && <InviteList invites={invites} showChannel busy={busy} onRevoke={revoke} />}
    </>
  );
}
