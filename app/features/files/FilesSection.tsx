import { useId, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import { LoadFailed, useLoad } from "~/ui/useLoad";
import { useSaving } from "~/ui/useSaving";
import { FILE_TYPES, FILE_TYPE_LABELS, type FilePolicy, type FileTypes } from "~/features/files/policy";
import { refreshFilePolicy } from "~/features/files/policy.client";

const savedText = (policy: FilePolicy) =>
  `Saved: ${policy.types === "any" ? "any type of file" : policy.types === "office" ? "images, .pdf, .txt, .zip, office documents and .csv" : "images, .pdf, .txt and .zip"}, up to ${policy.maxMb} MB.`;

/** Files (admin console): which files people can send and the largest, up to this server's cap (ADR 71). */
export function FilesSection() {
  const [policy, setPolicy] = useState<FilePolicy | null>(null);
  const [types, setTypes] = useState<FileTypes>("standard");
  const [maxMb, setMaxMb] = useState("");
  const { busy, error, saved, run, refuse } = useSaving();
  const name = useId();
  const sizeId = useId();
  const hintId = useId();

  const { error: loadError, retry } = useLoad(async () => {
    const answer = await api<FilePolicy>("/api/files/policy");
    setPolicy(answer);
    setTypes(answer.types);
    setMaxMb(String(answer.maxMb));
  });

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!policy) return;
    const mb = Number(maxMb);
    if (!Number.isInteger(mb) || mb < 1 || mb > policy.capMb) return refuse(`Enter a whole number of MB from 1 to ${policy.capMb}.`);
    await run(async () => {
      const answer = await api<FilePolicy>("/api/admin/files", { types, maxMb: mb });
      setPolicy(answer);
      await refreshFilePolicy(true);
      return savedText(answer);
    });
  }

  if (!policy) return loadError ? <LoadFailed message={loadError} onRetry={retry} /> : <p className="hint">Loading the file settings...</p>;
  return (
    <form onSubmit={(e) => void save(e)}>
      <fieldset className="admin-setting" disabled={busy}>
        <legend>Files people can send</legend>
        {FILE_TYPES.map((value) => (
          <label key={value} className="check">
            <input type="radio" name={name} value={value} checked={types === value} onChange={() => setTypes(value)} />
            {FILE_TYPE_LABELS[value]}
          </label>
        ))}
        <p className="hint">
          Files are encrypted on the sender&apos;s device: the server sees neither their content nor their name, so the kinds of file are
          checked by the app when a file is picked. The size is checked by the server.
        </p>
      </fieldset>
      <fieldset className="admin-setting" disabled={busy}>
        <legend>Size limit</legend>
        <label htmlFor={sizeId}>Largest file (MB)</label>
        <input
          id={sizeId}
          type="number"
          inputMode="numeric"
          min={1}
          max={policy.capMb}
          required
          aria-describedby={hintId}
          value={maxMb}
          onChange={(e) => setMaxMb(e.target.value)}
        />
        <p id={hintId} className="hint">
          At most {policy.capMb} MB on this server.
        </p>
      </fieldset>
      <button type="submit" className="btn" disabled={busy}>
        {busy ? "Saving..." : "Save file settings"}
      </button>
      <p className="admin-status" role="status">
        {saved}
      </p>
      <FormError message={error} />
    </form>
  );
}
