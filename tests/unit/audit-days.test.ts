import { describe, expect, it } from "vitest";
import { dayStart } from "~/features/audit/days";

// The audit log's "From" and "To" are days of the administrator's calendar, sent as instants.

describe("dayStart", () => {
  it("is the local start of the day, or of a later one, as a UTC instant", () => {
    const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).toISOString();
    expect(dayStart("2026-12-05")).toBe(local(2026, 12, 5));
    // the day after the last one shown: across a month's and a year's end
    expect(dayStart("2026-11-30", 1)).toBe(local(2026, 12, 1));
    expect(dayStart("2026-12-31", 1)).toBe(local(2027, 1, 1));
    expect(Date.parse(dayStart("2026-12-31", 1)) - Date.parse(dayStart("2026-12-31"))).toBeGreaterThanOrEqual(23 * 3600_000);
  });
});
