import { useId, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { LoadFailed, useLoad } from "~/ui/useLoad";
import { useSaving } from "~/ui/useSaving";
import { MAX_DAYS, PRESET_DAYS, periodLabel, type RetentionPolicy } from "~/features/retention/retention";
import { refreshRetention } from "~/features/retention/retention.client";
import { ConfirmDialog } from "~/ui/Modal";
import { useExpiringCount } from "~/features/retention/useExpiringCount";

type Choice = (typeof PRESET_DAYS)[number] | "custom";

const choiceOf = (days: number): Choice => ((PRESET_DAYS as readonly number[]).includes(days) ? (days as Choice) : "custom");

/** Retention (admin console): how long the workspace keeps messages, whether channel admins may shorten it, whether pinned messages stay. */
export function RetentionSection() {
  const [loaded, setLoaded] = useState(false);
  const [choice, setChoice] = useState<Choice>(0);
  const [custom, setCustom] = useState("");
  const [perChannel, setPerChannel] = useState(false);
  const [keepPinned, setKeepPinned] = useState(false);
  // The period saved now (0: forever), and a shorter one waiting for its confirmation (it deletes at once).
  const [current, setCurrent] = useState(0);
  const [shortening, setShortening] = useState<number | null>(null);
  const { busy, error, saved, run, refuse } = useSaving();
  const expiring = useExpiringCount(shortening, { keepPinned });
  const name = useId();
  const customId = useId();

  const { error: loadError, retry } = useLoad(async () => {
    const policy = await api<RetentionPolicy>("/api/retention");
    setChoice(choiceOf(policy.days));
    setCustom(choiceOf(policy.days) === "custom" ? String(policy.days) : "");
    setPerChannel(policy.perChannel);
    setKeepPinned(policy.keepPinned);
    setCurrent(policy.days);
    setLoaded(true);
  });

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const days = choice === "custom" ? Number(custom) : choice;
    // (0 is "Forever", a choice of its own: a number typed is from 1 on)
    if (choice === "custom" && (!Number.isInteger(days) || days < 1 || days > MAX_DAYS))
      return refuse(`Enter a whole number of days from 1 to ${MAX_DAYS}.`);
    if (days > 0 && (current === 0 || days < current)) return setShortening(days);
    await store(days);
  }

  async function store(days: number) {
    const done = await run(async () => {
      const answer = await api<{ days: number }>("/api/admin/retention", { days, perChannel, keepPinned });
      setCurrent(answer.days);
      await refreshRetention(true);
      return answer.days > 0 ? `Saved: messages are kept for ${periodLabel(answer.days)}.` : "Saved: messages are kept forever.";
    });
    if (done) setShortening(null);
  }

  if (!loaded)
    return loadError ? <LoadFailed message={loadError} onRetry={retry} /> : <p className="hint">Loading the retention policy...</p>;
  return (
    <form onSubmit={(e) => void save(e)}>
      <fieldset className="admin-setting" disabled={busy}>
        <legend>How long messages are kept</legend>
        {PRESET_DAYS.map((days) => (
          <label key={days} className="check">
            <input type="radio" name={name} checked={choice === days} onChange={() => setChoice(days)} />
            {periodLabel(days)}
          </label>
        ))}
        <label className="check">
          <input type="radio" name={name} checked={choice === "custom"} onChange={() => setChoice("custom")} />A number of days
        </label>
        {choice === "custom" && (
          <label htmlFor={customId}>
            Number of days
            <input
              id={customId}
              className="retention-days"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DAYS}
              required
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
            />
          </label>
        )}
        <p className="hint">
          Older messages are deleted from the server with their edits, reactions, threads, files and link previews, and every device drops
          them.
        </p>
      </fieldset>
      <fieldset className="admin-setting" disabled={busy}>
        <legend>Exceptions</legend>
        <label className="check">
          <input type="checkbox" checked={perChannel} onChange={(e) => setPerChannel(e.target.checked)} />
          Channel admins may keep their channel&apos;s messages for a shorter time
        </label>
        <label className="check">
          <input type="checkbox" checked={keepPinned} onChange={(e) => setKeepPinned(e.target.checked)} />
          Keep pinned messages
        </label>
      </fieldset>
      <button type="submit" className="btn" disabled={busy}>
        {busy ? "Saving..." : "Save retention"}
      </button>
      <p className="admin-status" role="status">
        {saved}
      </p>
      <FormError message={error} />
      {shortening !== null && (
        <ConfirmDialog
          title={`Keep messages for ${periodLabel(shortening)}?`}
          message={`Messages older than ${periodLabel(shortening)} are deleted from the server for everyone within a few minutes, with their files, and every device drops them. They cannot be brought back. ${expiring}`.trim()}
          confirmLabel="Delete older messages"
          busy={busy}
          error={error}
          onConfirm={() => void store(shortening)}
          onClose={() => !busy && setShortening(null)}
        />
      )}
    </form>
  );
}
