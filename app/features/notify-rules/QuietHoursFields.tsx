import { useEffect, useId, useRef, useState } from "react";
import { Check } from "~/ui/Form";
import type { QuietHours } from "~/features/notify-rules/rules";
import { browserTimeZone } from "~/features/notify-rules/rules.client";
import { useNotifyRules } from "~/features/notify-rules/useNotifyRules.client";

/** Do not disturb when none was saved yet: off, 22:00 to 07:00 in this browser's time zone. */
export const defaultQuietHours = (): QuietHours => ({ enabled: false, from: "22:00", to: "07:00", timeZone: browserTimeZone() });

/** What is wrong with the hours as typed, or null. */
export function quietHoursProblem(quiet: QuietHours): string | null {
  if (!quiet.enabled) return null;
  if (!/^\d\d:\d\d$/.test(quiet.from) || !/^\d\d:\d\d$/.test(quiet.to)) return "Choose when Do not disturb starts and ends.";
  if (quiet.from === quiet.to) return "Do not disturb must not start and end at the same time.";
  return null;
}

/**
 * The Do not disturb hours being edited: the saved ones (once loaded, unless already edited), read in
 * this browser's time zone. `changed()` is what to save: the hours when they differ from the saved ones.
 */
export function useQuietHoursDraft() {
  const { rules, loaded } = useNotifyRules();
  const saved = rules.quiet;
  const [value, setValue] = useState<QuietHours>(() => ({ ...(saved ?? defaultQuietHours()), timeZone: browserTimeZone() }));
  const edited = useRef(false);
  useEffect(() => {
    if (loaded && !edited.current) setValue({ ...(saved ?? defaultQuietHours()), timeZone: browserTimeZone() });
  }, [loaded, saved]);
  const onChange = (next: QuietHours) => {
    edited.current = true;
    setValue(next);
  };
  const changed = () => (JSON.stringify(value) === JSON.stringify(saved ?? defaultQuietHours()) ? undefined : value);
  return { value, onChange, changed };
}

/**
 * The Notification Settings dialog's "Do not disturb": daily hours (past midnight allowed) in this
 * browser's time zone, saved with them, and what the server sees to notify a closed page.
 */
export function QuietHoursFields({ value, onChange }: { value: QuietHours; onChange: (next: QuietHours) => void }) {
  const fromId = useId();
  const toId = useId();
  const set = (update: Partial<QuietHours>) => onChange({ ...value, ...update });
  return (
    <fieldset className="settings-group">
      <legend>Do not disturb</legend>
      <Check label="Do not disturb from" checked={value.enabled} onChange={() => set({ enabled: !value.enabled })} />
      <div className="quiet-hours">
        <label htmlFor={fromId}>From</label>
        <input id={fromId} type="time" value={value.from} disabled={!value.enabled} onChange={(e) => set({ from: e.target.value })} />
        <label htmlFor={toId}>To</label>
        <input id={toId} type="time" value={value.to} disabled={!value.enabled} onChange={(e) => set({ to: e.target.value })} />
      </div>
      <p className="hint">Times in {value.timeZone} (this browser&apos;s time zone). Nothing notifies during these hours.</p>
      <p className="hint">
        To notify you when ChatCrypt is closed, the server keeps each conversation&apos;s notification choice, your mutes and your Do not
        disturb hours. Keywords stay encrypted: they notify only while ChatCrypt is open.
      </p>
    </fieldset>
  );
}
