import { useId, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { periodLabel } from "~/features/retention/retention";
import { refreshRetention, useRetentionPolicy } from "~/features/retention/retention.client";

const CHOICES = [7, 30, 90, 365];

/** For the channel's admins, where the workspace allows it: a shorter period for this channel (never a longer one). */
export function ChannelRetention({ channelId }: { channelId: string }) {
  const policy = useRetentionPolicy(channelId);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [saved, setSaved] = useState("");
  if (!policy.perChannel) return null;
  const applied = policy.channels[channelId] ?? 0;
  const own = applied > 0 && applied !== policy.days ? applied : 0;
  const shorter = CHOICES.filter((days) => policy.days <= 0 || days < policy.days);
  if (own > 0 && !shorter.includes(own)) shorter.push(own);

  async function choose(days: number) {
    setBusy(true);
    setError("");
    setSaved("");
    try {
      await api(`/api/channels/${encodeURIComponent(channelId)}/retention`, { days });
      await refreshRetention(true);
      setSaved(days > 0 ? `Saved: this channel keeps messages for ${periodLabel(days)}.` : "Saved: this channel follows the workspace.");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
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
