import { useEffect, useState } from "react";
import { WORLD_CLOCK_CITIES, formatCityTime } from "~/features/world-clock/world-clock";

/** The header's world clock: the chosen cities in 24-hour HH:MM, refreshed every second (spec §9). */
export function WorldClock({ cities }: { cities: string[] }) {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const zones = WORLD_CLOCK_CITIES.filter((c) => cities.includes(c.name));
  return (
    <ul className="world-clock" aria-label="World clock">
      {zones.map((city) => (
        <li key={city.name}>
          <span className="clock-city">{city.name}</span>
          <time className="clock-time">{now ? formatCityTime(now, city.timeZone) : "--:--"}</time>
        </li>
      ))}
    </ul>
  );
}
