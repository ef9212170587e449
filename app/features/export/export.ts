/** "Save Chat": the decrypted conversation of a channel as a plain text file. */

export interface ExportMessage {
  /** PocketBase timestamp (UTC), e.g. "2026-11-22 16:39:26.123Z". */
  created: string;
  sender: string;
  text: string;
  /** Decrypted file names. */
  attachments: string[];
  /** A reply that stays in its thread (written "alice, in a thread:"). */
  inThread?: boolean;
}

export interface ExportOptions {
  /** IANA time zone the times are written in; the environment's own zone when absent. */
  timeZone?: string;
  /** Which retention policy applied ("Messages are kept for 90 days"), under the export's date. */
  retention?: string;
  /** How a file is written under its message ("Attachment: report.pdf" when absent). */
  fileLine?: (name: string) => string;
  /** A direct conversation: headed "@name", as the app shows it (a channel: "#name"). */
  direct?: boolean;
}

const FALLBACK_FILE_NAME = "channel";
const FILE_NAME_MAX_CHARS = 100;
const INDENT = "  ";

const attachmentLine = (name: string) => `Attachment: ${name}`;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? "";
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function dateParts(date: Date, timeZone: string | undefined): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const hour = parts.hour === "24" ? "00" : parts.hour;
  return {
    date: `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day}`,
    time: `${hour}:${parts.minute}`,
  };
}

function formatDateTime(date: Date, timeZone: string | undefined): string {
  const parts = dateParts(date, timeZone);
  return `${parts.date} ${parts.time}`;
}

/** Reads a PocketBase timestamp ("2026-11-22 16:39:26.123Z") or an ISO one; null when unreadable. */
function parseTimestamp(value: string): Date | null {
  const date = new Date(value.trim().replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? null : date;
}

// Names and senders are one line each in the file.
const oneLine = (value: string) => value.replace(/\s+/gu, " ").trim();

/**
 * The file name of an export: the channel name with only letters, digits, spaces, "-" and "_"
 * (any run of other characters becomes one "-"), then the date: "Project X-2026-11-22.txt".
 */
export function exportFileName(channelName: string, date: Date, options: ExportOptions = {}): string {
  const safe = Array.from(
    channelName
      .normalize("NFC")
      .replace(/[^\p{L}\p{N} _-]+/gu, "-")
      .replace(/^[\s-]+|[\s-]+$/gu, ""),
  )
    .slice(0, FILE_NAME_MAX_CHARS)
    .join("")
    .trim();
  return `${safe || FALLBACK_FILE_NAME}-${dateParts(date, options.timeZone).date}.txt`;
}

/**
 * The export as plain text:
 *
 *     ChatCrypt export of #general
 *     Exported 2026-11-22 17:45
 *     Messages are kept for 90 days
 *
 *     [2026-11-22 17:39] alice: first line
 *       second line
 *       Attachment: report.pdf
 */
export function formatExport(channelName: string, messages: ExportMessage[], exportedAt: Date, options: ExportOptions = {}): string {
  const mark = options.direct ? "@" : "#";
  const lines = [`ChatCrypt export of ${mark}${oneLine(channelName)}`, `Exported ${formatDateTime(exportedAt, options.timeZone)}`];
  if (options.retention) lines.push(options.retention);
  lines.push("");
  for (const message of messages) {
    const created = parseTimestamp(message.created);
    const when = created ? formatDateTime(created, options.timeZone) : message.created.trim();
    const [first = "", ...rest] = message.text.replace(/\r\n?/gu, "\n").split("\n");
    lines.push(`[${when}] ${oneLine(message.sender)}${message.inThread ? ", in a thread" : ""}: ${first}`.trimEnd());
    for (const line of rest) lines.push(line === "" ? "" : INDENT + line);
    for (const name of message.attachments) lines.push(INDENT + (options.fileLine ?? attachmentLine)(oneLine(name)));
  }
  return lines.join("\n") + "\n";
}
