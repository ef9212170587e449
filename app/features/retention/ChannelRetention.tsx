import { useId } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { useSaving } from "~/ui/useSaving";
import { periodLabel } from "~/features/retention/retention";
import { refreshRetention, useRetentionPolicy } from "~/features/retention/retention.client";

const CHOICES = [7, 30, 90, 365];

/** For the channel's admins, where the workspace allows it: a shorter period for this channel (never a longer one). */
export function ChannelRetention({ channelId }: { channelId: string }) {
  const policy = useRetentionPolicy(channelId);
  const id = useId();
  const { busy, error, saved, run } = useSaving();
  if (!policy.perChannel) return null;
  const applied = policy.channels[channelId] ?? 0;
  const own = applied > 0 && applied !== policy.days ? applied : 0;
  const shorter = CHOICES.filter((days) => policy.days <= 0 || days < policy.days);
  if (own > 0 && !shorter.includes(own)) shorter.push(own);

  async function choose(days: number) {
    await run(async () => {
      await api(`/api/channels/${encodeURIComponent(channelId)}/retention`, { days });
      await refreshRetention(true);
      return days > 0 ? `Saved: this channel keeps messages for ${periodLabel(days)}.` : "Saved: this channel follows the workspace.";
    });
  }

  return (
    <>
      <h3>Retention</h3>
      <label htmlFor={id}>Keep this channel&apos;s messages</label>
      <select id={id} value={own} disabled={busy} onChange={(e) => void choose(Number(e.target.value))}>
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
      <FormError message={error} />
    </>
  );
}
