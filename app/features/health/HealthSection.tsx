import { useEffect, useState } from "react";
import { api } from "~/lib/api.client";
import { FormError } from "~/ui/Form";
import type { HealthStatus } from "~/features/health/health";

const REFRESH_MS = 5_000;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Health (admin console): whether replication keeps up, refreshed every 5 s while the console is open. */
export function HealthSection() {
  const [health, setHealth] = useState<HealthStatus | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const read = () =>
      api<HealthStatus>("/api/admin/health")
        .then((status) => {
          setHealth(status);
          setError("");
        })
        .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
        .finally(() => {
          if (!stopped) timer = setTimeout(read, REFRESH_MS);
        });
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  const replication = health?.replication;
  return (
    <>
      {!replication ? (
        !error && <p className="hint">Loading the server's health...</p>
      ) : (
        <dl className="health-facts" aria-label="Replication">
          <dt>Replication</dt>
          <dd>
            <span role="status" data-state={replication.state}>
              {replication.message}
            </span>
          </dd>
          {replication.checkedAt && (
            <>
              <dt>Database last changed</dt>
              <dd>{when(replication.changedAt)}</dd>
              <dt>Replica last written</dt>
              <dd>{when(replication.replicatedAt)}</dd>
              <dt>Write-ahead log</dt>
              <dd>{megabytes(replication.walBytes)}</dd>
            </>
          )}
        </dl>
      )}
      <FormError message={error} />
    </>
  );
}
