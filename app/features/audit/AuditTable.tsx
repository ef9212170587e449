import { actionWords } from "~/features/audit/actions";
import { detailWords } from "~/features/audit/details";
import type { AuditEntry } from "~/features/audit/types";

// (with the time zone: an administrator compares entries with other logs)
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "long" });

/** A person the log names: their username, or "deleted account" for an account that is gone. */
function who(id: string, name: string) {
  if (!id) return "—";
  return name ? `@${name}` : "deleted account";
}

/**
 * The audit log's entries: when, who, action (words, with the code), target, details (words), address and device. A
 * person's name filters the log to them.
 */
export function AuditTable({ entries, onPerson }: { entries: AuditEntry[]; onPerson: (id: string, name: string) => void }) {
  const person = (id: string, name: string) =>
    id ? (
      <button
        type="button"
        className="btn-link"
        aria-label={`Show only the entries of ${who(id, name)}`}
        title={`Show only the entries of ${who(id, name)}`}
        onClick={() => onPerson(id, name)}
      >
        {who(id, name)}
      </button>
    ) : (
      who(id, name)
    );
  // (a channel's own entries name it: "#Ops", not its id, as does its retention period's; an invite's,
  // the channel it is for)
  const targetOf = (entry: AuditEntry) =>
    entry.target_name || entry.target === entry.actor
      ? person(entry.target, entry.target_name)
      : (entry.action.startsWith("channel.") || entry.details.setting === "channel_retention_days") && entry.channel_name
        ? entry.channel_name
        : entry.action.startsWith("invite.") && entry.target
          ? `An invite${entry.channel_name ? ` to ${entry.channel_name}` : ""}`
          : entry.target || "—";
  return (
    <div className="audit-table-wrap">
      <table className="audit-table" aria-label="Audit log entries">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
            <th scope="col">Address</th>
            <th scope="col">Device</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.seq}>
              <td>{entry.seq}</td>
              <td>
                <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>
              </td>
              <td>{person(entry.actor, entry.actor_name)}</td>
              <td>
                <span title={entry.action}>{actionWords(entry.action)}</span>
                <br />
                <code className="audit-code">{entry.action}</code>
              </td>
              <td>{targetOf(entry)}</td>
              <td>{detailWords(entry.action, entry.details, entry.channel_name) || "—"}</td>
              <td>{entry.ip || "—"}</td>
              <td>{entry.device || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
