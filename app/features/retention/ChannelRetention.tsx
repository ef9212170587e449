import { useId, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { ConfirmDialog } from "~/ui/Modal";
import { useSaving } from "~/ui/useSaving";
import { periodLabel } from "~/features/retention/retention";
import { refreshRetention, useRetentionPolicy } from "~/features/retention/retention.client";
import { useExpiringCount } from "~/features/retention/useExpiringCount";

const CHOICES = [7, 30, 90, 365];

/**
 * For the channel's admins, where the workspace allows it: a shorter period for this channel (never a
 * longer one). A period that deletes sooner than the one in force asks first, as the console's does
 * (a select changes with each arrow key); the select keeps the focus while it saves.
 */
export function ChannelRetention({ channelId }: { channelId: string }) {
  const policy = useRetentionPolicy(channelId);
  const id = useId();
  const { busy, error, saved, run } = useSaving();
  // a period that deletes sooner, waiting for its confirmation
  const [shortening, setShortening] = useState<number | null>(null);
  const expiring = useExpiringCount(shortening, { channelId });
  if (!policy.perChannel) return null;
  const applied = policy.channels[channelId] ?? 0;
  const own = applied > 0 && applied !== policy.days ? applied : 0;
  const shorter = CHOICES.filter((days) => policy.days <= 0 || days < policy.days);
  if (own > 0 && !shorter.includes(own)) shorter.push(own);
  const inForce = own > 0 ? own : policy.days;

  function choose(days: number) {
    if (busy) return;
    const next = days > 0 ? days : policy.days;
    if (next > 0 && (inForce <= 0 || next < inForce)) return setShortening(days);
    void store(days);
  }

  async function store(days: number) {
    const done = await run(async () => {
      await api(`/api/channels/${encodeURIComponent(channelId)}/retention`, { days });
      await refreshRetention(true);
      return days > 0 ? `Saved: this channel keeps messages for ${periodLabel(days)}.` : "Saved: this channel follows the workspace.";
    });
    if (done) setShortening(null);
  }

  return (
    <>
      <h3>Retention</h3>
      <label htmlFor={id}>Keep this channel&apos;s messages</label>
      <select id={id} value={own} aria-disabled={busy || undefined} onChange={(e) => choose(Number(e.target.value))}>
        <option value={0}>As the workspace: {periodLabel(policy.days).toLowerCase()}</option>
        {shorter.map((days) => (
          <option key={days} value={days}>
            {periodLabel(days)}
          </option>
        ))}
      </select>
      <p className="hint" role="status">
        {saved}
      </p>
      <FormError message={shortening === null ? error : null} />
      {shortening !== null && (
        <ConfirmDialog
          title={`Keep this channel's messages for ${periodLabel(shortening)}?`}
          message={`Messages of this channel older than ${periodLabel(shortening)} are deleted from the server for everyone within a few minutes, with their files, and every device drops them. They cannot be brought back. ${expiring}`.trim()}
          confirmLabel="Delete older messages"
          busy={busy}
          error={error}
          onConfirm={() => void store(shortening)}
          onClose={() => !busy && setShortening(null)}
        />
      )}
    </>
  );
}
