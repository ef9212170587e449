/**
 * The line a call leaves in its conversation ("Call ended · 2 min"): a system event PocketBase records
 * when the call's room empties (docs/decisions/0070-call-records-from-the-server.md), never a message.
 */
import { namesList } from "~/lib/names-list";
import type { CallRecordShape } from "./types";

/** "less than a minute" under a minute; otherwise the nearest minute ("2 min"), hours from an hour ("1 h 5 min"). */
export function callDuration(durationMs: number): string {
  if (!(durationMs >= 60_000)) return "less than a minute";
  const minutes = Math.round(durationMs / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/**
 * The call's line: "Call ended · 2 min"; a direct conversation's call nobody answered reads "Call not
 * answered" for the one who placed it ("Call declined by bob" when someone declined its ring),
 * "Declined call from alice" for those who declined it and "Missed call from alice" for the others.
 */
export function callEntryText(record: CallRecordShape, viewerId: string): string {
  if (record.unanswered) {
    const { caller, name, declined = [] } = record.unanswered;
    const from = name ? ` from ${name}` : "";
    if (caller === viewerId) {
      const names = declined.map((d) => d.name).filter(Boolean);
      return names.length ? `Call declined by ${namesList(names)}` : "Call not answered";
    }
    if (declined.some((d) => d.id === viewerId)) return `Declined call${from}`;
    return `Missed call${from}`;
  }
  const at = (value: string) => Date.parse(value.replace(" ", "T"));
  return `Call ended · ${callDuration(at(record.ended) - at(record.started))}`;
}
