/** The world clock in the header: the fixed list of cities, the user's choice, the time shown. */

export const WORLD_CLOCK_CITIES: readonly { name: string; timeZone: string }[] = [
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
];

export const MAX_CLOCK_CITIES = 7;
export const DEFAULT_CLOCK_CITIES = ["New York", "London", "Tokyo"];

const KNOWN_NAMES = new Set(WORLD_CLOCK_CITIES.map((city) => city.name));

// One formatter per zone: the clock formats every chosen city once a second.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The time of day at `date` in `timeZone` as 24-hour "HH:MM" (00:00 to 23:59). */
export function formatCityTime(date: Date, timeZone: string): string {
  let hour = "";
  let minute = "";
  for (const part of formatterFor(timeZone).formatToParts(date)) {
    if (part.type === "hour") hour = part.value;
    else if (part.type === "minute") minute = part.value;
  }
  // Some engines still write midnight as "24" even with hourCycle h23.
  if (hour === "24") hour = "00";
  return `${hour.padStart(2, "0")}:${minute.padStart(2, "0")}`;
}

/** Orders city names as in WORLD_CLOCK_CITIES, each once, unknown names dropped. */
function canonical(names: Iterable<unknown>): string[] {
  const wanted = new Set<unknown>(names);
  return WORLD_CLOCK_CITIES.map((city) => city.name).filter((name) => wanted.has(name));
}

/**
 * The cities of a stored choice (for example a profile's world_clock_cities): known names only,
 * in the fixed order, each once, at most MAX_CLOCK_CITIES; the defaults when none is left.
 */
export function sanitizeCities(list: unknown): string[] {
  const cities = Array.isArray(list) ? canonical(list).slice(0, MAX_CLOCK_CITIES) : [];
  return cities.length > 0 ? cities : [...DEFAULT_CLOCK_CITIES];
}

/**
 * Adds or removes a city in the settings dialog. Adding an eighth city or an unknown name changes
 * nothing (the same array comes back); removing the last one gives an empty choice, which the
 * dialog refuses to save.
 */
export function toggleCity(selected: string[], name: string): string[] {
  if (!KNOWN_NAMES.has(name)) return selected;
  if (selected.includes(name)) return canonical(selected.filter((city) => city !== name));
  const current = canonical(selected);
  if (current.length >= MAX_CLOCK_CITIES) return selected;
  return canonical([...current, name]);
}
