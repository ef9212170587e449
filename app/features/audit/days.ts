/**
 * The start of a day (YYYY-MM-DD) in this browser's time zone, `days` later, as the UTC instant the
 * server compares the audit log's times with: an administrator's "From" and "To" are days of their
 * own calendar.
 */
export function dayStart(day: string, days = 0): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year, month - 1, date + days).toISOString();
}
