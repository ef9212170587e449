import { useCallback, useEffect, useId, useState } from "react";
import { ACTION_FILTERS } from "~/features/audit/actions";
import { loadAuditPage } from "~/features/audit/audit.client";
import { AuditTable } from "~/features/audit/AuditTable";
import type { AuditPage, AuditQuery, ChainStatus } from "~/features/audit/types";
import { ApiError, onChangedSomething } from "~/lib/api.client";
import { FormError } from "~/ui/Form";

/** The download of the whole log (a plain link, rendered on the server too: it names the file audit-YYYY-MM-DD.jsonl). */
const EXPORT_URL = "/api/admin/audit/export";

const LOAD_FAILED = "The audit log could not be loaded. Please try again.";

/** "Chain verified" with the count, or the first entry that does not hold. */
export function chainWords(chain: ChainStatus): string {
  if (chain.ok) return `Chain verified: ${chain.count} ${chain.count === 1 ? "entry" : "entries"}.`;
  return `Broken at entry ${chain.seq}: it was changed or removed after it was written.`;
}

/**
 * The admin console's "Audit log" (owner and admins): who did what, when, from which address and
 * device, newest first; filtered by person and action; the chain's verdict; the whole log as JSON Lines.
 * The console gives it its region and heading (app/features/admin/sections.ts: id "audit").
 */
/** The first page of a query, read afresh (the newest entries). */
const firstPage = (query: AuditQuery & { personName?: string }) => ({ ...query, page: 1, upto: undefined });

/** A day of the administrator's calendar ("From", "To"; YYYY-MM-DD, undefined when cleared). */
function DayField(props: { label: string; value?: string; min?: string; max?: string; onChange: (day: string | undefined) => void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="date"
        value={props.value ?? ""}
        min={props.min || undefined}
        max={props.max || undefined}
        onChange={(event) => props.onChange(event.target.value || undefined)}
      />
    </>
  );
}

export function AuditSection() {
  const actionId = useId();
  const [query, setQuery] = useState<AuditQuery & { personName?: string }>({ page: 1 });
  const [page, setPage] = useState<AuditPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (next: AuditQuery) => {
    setError(null);
    try {
      setPage(await loadAuditPage(next));
    } catch (err) {
      setError(err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : LOAD_FAILED);
    }
  }, []);

  useEffect(() => {
    void load(query);
  }, [load, query]);
  // What this console changes (a role, a setting, a deactivation) shows in the log without "Refresh".
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onChangedSomething((path) => {
      if (path.startsWith("/api/audit")) return;
      clearTimeout(timer);
      timer = setTimeout(() => void load(query), 300);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [load, query]);

  const current = page?.page ?? 1;
  return (
    <div className="audit-section">
      {page && (
        <p role="status" className={page.chain.ok ? "audit-chain audit-chain-ok" : "audit-chain audit-chain-broken"}>
          {chainWords(page.chain)}
        </p>
      )}
      <div className="audit-controls">
        <label htmlFor={actionId}>Action</label>
        <select
          id={actionId}
          value={query.action ?? ""}
          onChange={(event) => setQuery(firstPage({ ...query, action: event.target.value }))}
        >
          {ACTION_FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </select>
        <DayField label="From" value={query.from} max={query.to} onChange={(from) => setQuery(firstPage({ ...query, from }))} />
        <DayField label="To" value={query.to} min={query.from} onChange={(to) => setQuery(firstPage({ ...query, to }))} />
        {query.person && (
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Show everyone's entries, not only those of @${query.personName || query.person}`}
            onClick={() => setQuery({ action: query.action, from: query.from, to: query.to, page: 1 })}
          >
            Everyone
          </button>
        )}
        <button type="button" className="btn btn-small" onClick={() => (current > 1 ? setQuery(firstPage(query)) : void load(query))}>
          Refresh
        </button>
        <a className="btn btn-small" href={EXPORT_URL} download>
          Download JSON Lines
        </a>
      </div>
      {query.person && <p className="hint">Only the entries of @{query.personName || query.person}.</p>}
      {page && current > 1 && page.newer > 0 && (
        <p className="hint">
          {page.newer} new {page.newer === 1 ? "entry" : "entries"} since page 1 was read: they are on page 1.
        </p>
      )}
      {page && page.items.length === 0 && <p className="hint">No entries.</p>}
      {page && page.items.length > 0 && (
        <AuditTable
          entries={page.items}
          onPerson={(person, personName) => setQuery({ action: query.action, from: query.from, to: query.to, person, personName, page: 1 })}
        />
      )}
      {page && page.totalPages > 1 && (
        // (the end's button says so but keeps the focus: a disabled one would drop it to the page)
        <nav className="audit-pages" aria-label="Audit log pages">
          <button
            type="button"
            className="btn btn-small"
            aria-disabled={current <= 1}
            onClick={() => current > 1 && setQuery(current === 2 ? firstPage(query) : { ...query, page: current - 1 })}
          >
            Newer
          </button>
          <span>
            Page {current} of {page.totalPages}
          </span>
          <button
            type="button"
            className="btn btn-small"
            aria-disabled={current >= page.totalPages}
            onClick={() => current < page.totalPages && setQuery({ ...query, page: current + 1, upto: page.upto })}
          >
            Older
          </button>
        </nav>
      )}
      <FormError message={error} />
      {page === null && !error && (
        <p role="status" className="hint">
          Loading the audit log...
        </p>
      )}
    </div>
  );
}
