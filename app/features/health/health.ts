/** How replication is doing (pb_hooks/health.pb.js, written by the supervisor: scripts/lib/replication-health.mjs). */
export interface ReplicationHealth {
  state: "ok" | "behind" | "stopped" | "off" | "unknown";
  message: string;
  /** When the supervisor last looked (ISO 8601). */
  checkedAt: string | null;
  /** When the database last changed. */
  changedAt: string | null;
  /** When the replica (on this machine) was last written. */
  replicatedAt: string | null;
  /** The size of the database's write-ahead log, which grows while nothing replicates it. */
  walBytes: number;
}

export interface HealthStatus {
  replication: ReplicationHealth;
}
