/** One audit log entry as the console and the export show it (pb_hooks/lib/audit_read.js). */
export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  actor_name: string;
  action: string;
  target: string;
  target_name: string;
  /** The channel the entry is about ("#Ops", "a direct conversation"; "" when unknown or deleted). */
  channel_name?: string;
  ip: string;
  device: string;
  details: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

/** The chain's verdict: every entry holds, or the number of the first one that does not. */
export interface ChainStatus {
  ok: boolean;
  count: number;
  seq?: number;
}

export interface AuditPage {
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  /** The newest entry the pages are counted from (the log's newest when page 1 was read). */
  upto: number;
  /** Entries (of this filter) written since. */
  newer: number;
  items: AuditEntry[];
  chain: ChainStatus;
}

/** One entry of the caller's own account activity (Menu > Account). */
export interface ActivityEntry {
  seq: number;
  at: string;
  action: string;
  actor_name: string;
  ip: string;
  device: string;
  /** The caller did it (else someone did it to their account: an administrator, or a failed sign-in burst). */
  self: boolean;
}

/** The console's filter: a person's account id and an action (or its family, e.g. "signin."). */
export interface AuditQuery {
  page?: number;
  /** Pages after the first count from the entry the first one was read up to (`AuditPage.upto`). */
  upto?: number;
  person?: string;
  action?: string;
  /** The first and the last day shown (YYYY-MM-DD, in the administrator's time zone; both included). */
  from?: string;
  to?: string;
}
