// The capacity ramp's rows of the bench's table (bench/lib/report.mjs): the ceilings per message rate
// with the machine's raw create beside them, the message POSTs' p99 at 10,000 clients and 50 messages/s
// (issue 49), and the memory at 10,000 clients.
import { ms, n, yes } from "./format.mjs";

// Issue 49: at 5 messages/s ≥ 30,000 clients, at 50 messages/s ≥ 15,000.
const TARGETS = { 5: 30_000, 50: 15_000 };
const POST_P99_TARGET_MS = 100;

export function capacityRows(r) {
  const out = [];
  const cap = r.capacity ?? { levels: [] };
  const raw = Number.isFinite(cap.rawCreateMs) ? `raw create ${ms(cap.rawCreateMs, 1)}` : "—";
  for (const { rate } of r.config.capacityRates ?? []) {
    const held = cap.held?.[rate];
    const failedAt = cap.failed?.[rate];
    const measured = held
      ? `${n(held)} clients${failedAt ? ` (broke at ${n(failedAt)})` : cap.stopped ? ` (${cap.stopped})` : ""}`
      : cap.levels.length
        ? `< ${n(cap.levels[0].level)} clients`
        : `not measured${cap.skipped ? ` (${cap.skipped})` : ""}`;
    const target = TARGETS[rate];
    out.push([
      `capacity at ${rate} msg/s (p99 < ${r.config.capacityP99Ms} ms, nothing lost)`,
      measured,
      raw,
      target ? `≥ ${n(target)} clients` : "—",
      target ? yes((held ?? 0) >= target) : "—",
    ]);
  }
  const at10k = cap.levels.find((l) => l.level === 10_000 && !l.incomplete);
  const busiest = at10k?.rounds?.find((round) => round.rate === 50);
  out.push([
    "message POST p99 at 10,000 clients, 50 msg/s",
    busiest ? ms(busiest.post.p99) : cap.levels.length ? "10,000 at 50 msg/s not reached" : "not measured",
    busiest ? `p50 ${ms(busiest.post.p50)}; ${raw}` : raw,
    `≤ ${POST_P99_TARGET_MS} ms`,
    busiest ? yes(busiest.post.p99 <= POST_P99_TARGET_MS) : "—",
  ]);
  const rssAt = (key) => at10k?.rounds?.[0]?.rss?.[key] ?? at10k?.idle?.rss?.[key];
  const rssRow = (label, key, limit) => {
    if (!at10k)
      return [label, "10,000 not reached", `idle ${n(r.idleRss?.[key])} MB`, `≤ ${limit} MB at 10,000`, cap.levels.length ? "**no**" : "—"];
    const each = key === "web" && at10k.rounds?.[0]?.rss?.webEach ? ` (${at10k.rounds[0].rss.webEach.map((x) => n(x)).join(" + ")})` : "";
    return [
      label,
      `${n(rssAt(key))} MB at 10,000${each}`,
      `idle ${n(r.idleRss?.[key])} MB`,
      `≤ ${limit} MB at 10,000`,
      yes(rssAt(key) <= limit),
    ];
  };
  out.push(rssRow("PocketBase RSS", "pocketbase", 400));
  out.push(rssRow("web tier RSS (all processes)", "web", 600));
  return out;
}
