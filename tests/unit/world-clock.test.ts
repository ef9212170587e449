import { describe, expect, it } from "vitest";
import {
  DEFAULT_CLOCK_CITIES,
  MAX_CLOCK_CITIES,
  WORLD_CLOCK_CITIES,
  formatCityTime,
  sanitizeCities,
  toggleCity,
} from "~/features/world-clock/world-clock";

const zoneOf = (name: string) => {
  const city = WORLD_CLOCK_CITIES.find((entry) => entry.name === name);
  if (!city) throw new Error(`unknown city ${name}`);
  return city.timeZone;
};

/** The time of every city at one instant, by city name. */
const timesAt = (iso: string) =>
  Object.fromEntries(WORLD_CLOCK_CITIES.map((city) => [city.name, formatCityTime(new Date(iso), city.timeZone)]));

describe("the city list", () => {
  it("has the twelve cities of the spec, in order, each with its zone", () => {
    expect(WORLD_CLOCK_CITIES).toEqual([
      { name: "New York", timeZone: "America/New_York" },
      { name: "London", timeZone: "Europe/London" },
      { name: "Frankfurt", timeZone: "Europe/Berlin" },
      { name: "Moscow", timeZone: "Europe/Moscow" },
      { name: "Dubai", timeZone: "Asia/Dubai" },
      { name: "Beijing", timeZone: "Asia/Shanghai" },
      { name: "Tokyo", timeZone: "Asia/Tokyo" },
      { name: "Sydney", timeZone: "Australia/Sydney" },
      { name: "Los Angeles", timeZone: "America/Los_Angeles" },
      { name: "Paris", timeZone: "Europe/Paris" },
      { name: "Singapore", timeZone: "Asia/Singapore" },
      { name: "Hong Kong", timeZone: "Asia/Hong_Kong" },
    ]);
    expect(MAX_CLOCK_CITIES).toBe(7);
    expect(DEFAULT_CLOCK_CITIES).toEqual(["New York", "London", "Tokyo"]);
  });
});

describe("formatCityTime", () => {
  it("gives every city's time in January (northern winter, Sydney summer time)", () => {
    expect(timesAt("2026-01-15T12:00:00Z")).toEqual({
      "New York": "07:00",
      London: "12:00",
      Frankfurt: "13:00",
      Moscow: "15:00",
      Dubai: "16:00",
      Beijing: "20:00",
      Tokyo: "21:00",
      Sydney: "23:00",
      "Los Angeles": "04:00",
      Paris: "13:00",
      Singapore: "20:00",
      "Hong Kong": "20:00",
    });
  });

  it("gives every city's time in July (northern summer time, Sydney winter)", () => {
    expect(timesAt("2026-07-15T12:34:00Z")).toEqual({
      "New York": "08:34",
      London: "13:34",
      Frankfurt: "14:34",
      Moscow: "15:34",
      Dubai: "16:34",
      Beijing: "20:34",
      Tokyo: "21:34",
      Sydney: "22:34",
      "Los Angeles": "05:34",
      Paris: "14:34",
      Singapore: "20:34",
      "Hong Kong": "20:34",
    });
  });

  it("follows the US change to summer time on 2026-03-08", () => {
    expect(formatCityTime(new Date("2026-03-08T06:59:00Z"), zoneOf("New York"))).toBe("01:59");
    expect(formatCityTime(new Date("2026-03-08T07:00:00Z"), zoneOf("New York"))).toBe("03:00");
    expect(formatCityTime(new Date("2026-03-08T09:59:00Z"), zoneOf("Los Angeles"))).toBe("01:59");
    expect(formatCityTime(new Date("2026-03-08T10:00:00Z"), zoneOf("Los Angeles"))).toBe("03:00");
    // Europe has not changed yet
    expect(formatCityTime(new Date("2026-03-08T10:00:00Z"), zoneOf("London"))).toBe("10:00");
    expect(formatCityTime(new Date("2026-03-08T10:00:00Z"), zoneOf("Paris"))).toBe("11:00");
  });

  it("follows the EU change to summer time on 2026-03-29 and back on 2026-10-25", () => {
    const before = new Date("2026-03-29T00:59:00Z");
    const after = new Date("2026-03-29T01:00:00Z");
    expect([before, after].map((d) => formatCityTime(d, zoneOf("London")))).toEqual(["00:59", "02:00"]);
    expect([before, after].map((d) => formatCityTime(d, zoneOf("Frankfurt")))).toEqual(["01:59", "03:00"]);
    expect([before, after].map((d) => formatCityTime(d, zoneOf("Paris")))).toEqual(["01:59", "03:00"]);
    // Moscow keeps UTC+3 all year
    expect([before, after].map((d) => formatCityTime(d, zoneOf("Moscow")))).toEqual(["03:59", "04:00"]);

    const autumnBefore = new Date("2026-10-25T00:59:00Z");
    const autumnAfter = new Date("2026-10-25T01:00:00Z");
    expect([autumnBefore, autumnAfter].map((d) => formatCityTime(d, zoneOf("London")))).toEqual(["01:59", "01:00"]);
    expect([autumnBefore, autumnAfter].map((d) => formatCityTime(d, zoneOf("Frankfurt")))).toEqual(["02:59", "02:00"]);
    // New York is still on summer time until 2026-11-01
    expect(formatCityTime(autumnAfter, zoneOf("New York"))).toBe("21:00");
  });

  it("follows Sydney's end of summer time on 2026-04-05", () => {
    expect(formatCityTime(new Date("2026-04-04T15:59:00Z"), zoneOf("Sydney"))).toBe("02:59");
    expect(formatCityTime(new Date("2026-04-04T16:00:00Z"), zoneOf("Sydney"))).toBe("02:00");
    expect(formatCityTime(new Date("2026-04-05T12:00:00Z"), zoneOf("Sydney"))).toBe("22:00");
  });

  it("writes midnight as 00 and pads single digits", () => {
    expect(formatCityTime(new Date("2026-01-15T05:00:00Z"), zoneOf("New York"))).toBe("00:00");
    expect(formatCityTime(new Date("2026-01-14T15:05:00Z"), zoneOf("Tokyo"))).toBe("00:05");
    expect(formatCityTime(new Date("2026-01-15T01:07:00Z"), zoneOf("London"))).toBe("01:07");
    expect(formatCityTime(new Date("2026-01-15T23:59:00Z"), "UTC")).toBe("23:59");
  });
});

describe("sanitizeCities", () => {
  it("keeps known names once, in the list's order", () => {
    expect(sanitizeCities(["Tokyo", "London", "Atlantis", "Tokyo", 5, null, "london"])).toEqual(["London", "Tokyo"]);
  });

  it("keeps at most seven", () => {
    const all = [...WORLD_CLOCK_CITIES].reverse().map((city) => city.name);
    expect(sanitizeCities(all)).toEqual(["New York", "London", "Frankfurt", "Moscow", "Dubai", "Beijing", "Tokyo"]);
  });

  it("falls back to the defaults when nothing valid is left", () => {
    for (const stored of [undefined, null, "Tokyo", {}, [], ["Atlantis"], [1, 2]]) {
      expect(sanitizeCities(stored)).toEqual(["New York", "London", "Tokyo"]);
    }
    const cities = sanitizeCities(null);
    cities.push("Paris");
    expect(DEFAULT_CLOCK_CITIES).toEqual(["New York", "London", "Tokyo"]);
  });
});

describe("toggleCity", () => {
  it("adds in the list's order and removes", () => {
    expect(toggleCity(["Tokyo"], "London")).toEqual(["London", "Tokyo"]);
    expect(toggleCity(["London", "Tokyo"], "London")).toEqual(["Tokyo"]);
    expect(toggleCity(["Tokyo"], "Tokyo")).toEqual([]);
  });

  it("does not add an eighth city, but still removes at seven", () => {
    const seven = ["New York", "London", "Frankfurt", "Moscow", "Dubai", "Beijing", "Tokyo"];
    expect(toggleCity(seven, "Paris")).toBe(seven);
    expect(toggleCity(seven, "Dubai")).toEqual(["New York", "London", "Frankfurt", "Moscow", "Beijing", "Tokyo"]);
  });

  it("ignores unknown names", () => {
    const selected = ["London"];
    expect(toggleCity(selected, "Atlantis")).toBe(selected);
  });
});
