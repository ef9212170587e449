import { useId, useState } from "react";
import { saveWhoCanCreate } from "~/features/admin/admin.client";
import type { WhoCanCreate } from "~/features/admin/types";
import { FormError } from "~/ui/Form";
import { useSaving } from "~/ui/useSaving";

const CHOICES: { value: WhoCanCreate; label: string }[] = [
  { value: "everyone", label: "Everyone" },
  { value: "admins", label: "Admins only" },
];

/** "Who can create channels": stored on the server, enforced by the channel-creation hook (guests never). */
export function CreateChannelsSetting({ initial }: { initial: WhoCanCreate }) {
  const [value, setValue] = useState(initial);
  const { busy, error, saved, run } = useSaving();
  const name = useId();

  async function choose(next: WhoCanCreate) {
    const before = value;
    setValue(next);
    const done = await run(async () => {
      await saveWhoCanCreate(next);
      return next === "admins" ? "Saved: only administrators can create channels." : "Saved: everyone except guests can create channels.";
    });
    if (!done) setValue(before);
  }

  return (
    <fieldset className="admin-setting" disabled={busy}>
      <legend>Who can create channels</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="check">
          <input type="radio" name={name} value={c.value} checked={value === c.value} onChange={() => void choose(c.value)} />
          {c.label}
        </label>
      ))}
      <p className="hint">Guests never create channels.</p>
      <p className="hint" role="status">
        {saved}
      </p>
      <FormError message={error} />
    </fieldset>
  );
}
