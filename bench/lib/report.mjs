// The bench's one table, and the "Latest run" section of docs/benchmarks.md (the text between the
// markers is replaced on every run; the rest of the file is kept).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const START = "<!-- bench:latest:start -->";
const END = "<!-- bench:latest:end -->";

const n = (v, d = 0) => (Number.isFinite(v) ? v.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }) : "n/a");
const ms = (v, d = 1) => (Number.isFinite(v) ? `${n(v, d)} ms` : v === Infinity ? "lost" : "n/a");
const yes = (ok) => (ok === null || ok === undefined ? "—" : ok ? "yes" : "**no**");

function rows(r) {
  const out = [];
  for (const level of r.config.latencyLevels) {
    const entry = r.latency?.[level];
    if (!entry) continue;
    const { web, base } = entry;
    const ratio = web.p50 / base.p50;
    const lost = web.lost ? ` (${web.lost} lost)` : "";
    out.push([
      `delivery p50, ${level} clients`,
      `${ms(web.p50)}${lost}`,
      `${ms(base.p50)} (ratio ${n(ratio, 2)}×)`,
      "≤ 1.5× baseline",
      yes(ratio <= 1.5),
    ]);
    out.push([`delivery p95, ${level} clients`, ms(web.p95), ms(base.p95), "—", "—"]);
    const p99Target = level === 100;
    out.push([
      `delivery p99, ${level} clients`,
      ms(web.p99),
      ms(base.p99),
      p99Target ? "≤ 100 ms" : "—",
      p99Target ? yes(web.p99 <= 100) : "—",
    ]);
  }

  const cap = r.capacity ?? { levels: [] };
  const passed = cap.levels.filter((l) => l.ok);
  // The largest level where every level up to it kept p99 under the limit.
  let best = null;
  for (const l of cap.levels) {
    if (!l.ok) break;
    best = l;
  }
  const at1000 = cap.levels.find((l) => l.level === 1000 && !l.incomplete);
  const sent = cap.levels.filter((l) => !l.idleOnly && !l.incomplete);
  const capTarget = 1000;
  out.push([
    `capacity (p99 < ${r.config.capacityP99Ms} ms, ${r.config.capacitySenders} senders, ${r.config.capacityRate} msg/s)`,
    best
      ? `${n(best.level)} clients`
      : cap.levels.length
        ? `< ${n(cap.levels[0].level)} clients`
        : `not measured${cap.skipped ? ` (${cap.skipped})` : ""}`,
    "—",
    `≥ ${n(capTarget)} clients`,
    yes(best ? best.level >= capTarget : false),
  ]);
  const rssRow = (label, key, limit) => {
    const at = best ?? cap.levels[0];
    if (!at || !sent.length) return [label, "not measured", `idle ${n(r.idleRss?.[key])} MB`, `≤ ${limit} MB at 1,000`, "—"];
    let measured = `${n(at.rss[key])} MB at ${n(at.level)}`;
    let ok;
    if (at.level === 1000) ok = at.rss[key] <= limit;
    else if (at1000) {
      measured += `; ${n(at1000.rss[key])} MB at 1,000`;
      ok = at1000.rss[key] <= limit;
    } else ok = false;
    return [label, measured, `idle ${n(r.idleRss?.[key])} MB`, `≤ ${limit} MB at 1,000`, yes(ok)];
  };
  out.push(rssRow("PocketBase RSS at capacity", "pocketbase", 200));
  out.push(rssRow("web server RSS at capacity", "web", 300));

  if (r.fanout) {
    const { web, base } = r.fanout;
    out.push([
      `fan-out, ${web.recipients + 1}-member channel (deliveries/s)`,
      `${n(web.deliveriesPerSecond)} /s (${n(web.postsPerSecond, 1)} posts/s)`,
      `raw PocketBase ${n(base.deliveriesPerSecond)} /s (${n(base.postsPerSecond, 1)} posts/s)`,
      "≥ 200 /s",
      yes(web.deliveriesPerSecond >= 200),
    ]);
  }

  const b = r.browser;
  if (b && !b.error) {
    out.push([
      `history: open channel (${n(b.first.count)} of ${n(r.config.historyMessages)}, page size ${b.first.pageSize})`,
      ms(b.first.ms, 0),
      `API page alone ${ms(r.browser.apiPageMs, 0)}`,
      "≤ 500 ms",
      yes(b.first.ms <= 500),
    ]);
    out.push(["history: re-open (channel key cached)", ms(b.again.ms, 0), "—", "—", "—"]);
    if (b.withAnnotations) {
      const a = b.withAnnotations;
      out.push([
        `history with ${n(a.reactions)} reactions and ${n(a.edits)} edits: re-open`,
        `${ms(a.againMs, 0)} (${n(a.ratio, 2)}x)`,
        `without them ${ms(a.plainAgainMs, 0)}`,
        "≤ 1.3x",
        yes(a.ratio <= 1.3),
      ]);
    }
    out.push([
      "first load JS (gzip)",
      `${n(b.assets.js / 1024, 1)} KB`,
      `${n(b.assets.jsRaw / 1024, 1)} KB raw`,
      "≤ 150 KB",
      yes(b.assets.js / 1024 <= 150),
    ]);
    out.push(["first load CSS (gzip)", `${n(b.assets.css / 1024, 1)} KB`, `${n(b.assets.cssRaw / 1024, 1)} KB raw`, "—", "—"]);
    out.push([
      "sign-in (click to workspace)",
      ms(b.signInMs, 0),
      `PBKDF2 600k in Node ${ms(r.pbkdf2NodeMs, 0)}`,
      "≤ 1,500 ms",
      yes(b.signInMs <= 1500),
    ]);
  } else {
    out.push(["history / first load / sign-in", `not measured: ${b?.error ?? "skipped"}`, "—", "—", "—"]);
  }
  void passed;
  return out;
}

export function formatTable(r) {
  const header = ["figure", "measured", "baseline", "target", "met?"];
  const body = rows(r);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

function evidence(r) {
  const lines = [];
  const cpu = (u) =>
    u ? `PocketBase ${n(u.pocketbase)}%, web ${n(u.web)}%, bench clients ${n(u.bench)}%, other processes ${n(u.other)}%` : "n/a";
  for (const e of r.errors ?? []) lines.push(`- Phase failed: ${e}`);
  if (r.baselineTopic) {
    lines.push(
      `- Baseline: raw PocketBase realtime clients subscribed with the users' own tokens to ${r.baselineTopic === "chatcrypt/messages" ? "`chatcrypt/messages` (our PocketBase's members-only topic, the one /api/events uses)" : "the stock `messages/*` collection topic (PocketBase checks the list rule per subscriber)"}; messages created directly in PocketBase with the sender's token, no crypto.`,
    );
  }
  const perMessage = (u, messages) =>
    u
      ? `PocketBase ${n(((u.pocketbase / 100) * u.seconds * 1000) / Math.max(1, messages), 1)} ms, web ${n(((u.web / 100) * u.seconds * 1000) / Math.max(1, messages), 1)} ms`
      : "n/a";
  for (const level of r.config.latencyLevels) {
    const e = r.latency?.[level];
    if (!e) continue;
    lines.push(
      `- CPU per message, ${level} clients: through the web server ${perMessage(e.web.cpu, e.web.messages)}; raw PocketBase baseline ${perMessage(e.base.cpu, e.base.messages)} (the raw baseline has no web server work).`,
    );
    lines.push(
      `- Latency, ${level} clients (${r.config.latencyMessages} messages at ${r.config.latencyRate}/s): encrypt + sign p50 ${ms(e.web.encrypt.p50, 2)}; POST through the web server p50 ${ms(e.web.post.p50)} / p99 ${ms(e.web.post.p99)} against a raw PocketBase create p50 ${ms(e.base.post.p50)} / p99 ${ms(e.base.post.p99)}; send to event parsed from /api/events p50 ${ms(e.web.arrival.p50)} / p99 ${ms(e.web.arrival.p99)}; verify + decrypt on arrival p50 ${ms(e.web.verifyDecrypt.p50, 2)} / p99 ${ms(e.web.verifyDecrypt.p99, 2)}; ${e.web.n} deliveries (${e.web.lost} lost, ${e.web.bad} failed verification). CPU (% of one core): ${cpu(e.web.cpu)}.`,
    );
  }
  if (r.fanout) {
    const { web, base } = r.fanout;
    lines.push(
      `- Fan-out (${r.config.fanoutInflight} posts in flight for ${r.config.fanoutSeconds} s): web ${web.posts} posts, ${web.deliveries} deliveries (${web.lost} lost), ${n(web.fullyDeliveredPerSecond, 1)} posts/s reached all ${web.recipients} recipients, delivery p50 ${ms(web.latency.p50, 0)} / p99 ${ms(web.latency.p99, 0)}, POST p50 ${ms(web.post.p50)}; raw PocketBase ${base.posts} posts, POST p50 ${ms(base.post.p50)}, PocketBase CPU ${n(base.cpu?.pocketbase)}%. CPU through the web server: ${cpu(web.cpu)}; per post ${perMessage(web.cpu, web.posts)} (raw: PocketBase ${n((((base.cpu?.pocketbase ?? NaN) / 100) * (base.cpu?.seconds ?? NaN) * 1000) / Math.max(1, base.posts), 1)} ms).`,
    );
  }
  const cap = r.capacity;
  if (cap?.levels.length) {
    lines.push("");
    lines.push(
      `Capacity ramp (${r.config.capacitySenders} senders, ${r.config.capacityRate} messages/s in total, ${r.config.capacityMessages} messages per level; CPU in % of one core during the sending window):`,
    );
    lines.push("");
    lines.push(
      "| clients | streams opened in (CPU PB / web) | p50 | p99 | lost | POST p50 / p99 | CPU PocketBase | CPU web | CPU bench | CPU other | CPU ms per message PB / web | RSS PocketBase | RSS web | open fds PB / web |",
    );
    lines.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const l of cap.levels) {
      const opened = `${n(l.openSeconds, 1)} s (${n(l.openCpu?.pocketbase)}% / ${n(l.openCpu?.web)}%)`;
      if (l.idleOnly && !l.incomplete) {
        lines.push(
          `| ${l.level} | ${opened} | not sending (overloaded at a lower level) | | | | | | | | | ${n(l.rss.pocketbase)} MB | ${n(l.rss.web)} MB | ${n(l.fds?.pocketbase)} / ${n(l.fds?.web)} |`,
        );
        continue;
      }
      if (l.incomplete) {
        lines.push(
          `| ${l.level} | only ${l.open} opened (${l.failed} failed): ${opened} | | | | | | | | | | ${n(l.rss.pocketbase)} MB | ${n(l.rss.web)} MB | |`,
        );
        continue;
      }
      const perMessage = (pct) => ((pct / 100) * l.cpu.seconds * 1000) / Math.max(1, l.messages);
      lines.push(
        `| ${l.level} | ${opened} | ${ms(l.p50, 0)} | ${ms(l.p99, 0)} | ${l.lost} of ${l.expected} | ${ms(l.post.p50, 0)} / ${ms(l.post.p99, 0)} | ${n(l.cpu.pocketbase)}% | ${n(l.cpu.web)}% | ${n(l.cpu.bench)}% | ${n(l.cpu.other)}% | ${n(perMessage(l.cpu.pocketbase), 1)} / ${n(perMessage(l.cpu.web), 1)} | ${n(l.rss.pocketbase)} MB | ${n(l.rss.web)} MB | ${n(l.fds?.pocketbase)} / ${n(l.fds?.web)} |`,
      );
    }
    if (cap.skipped) lines.push(`\nRamp stopped: ${cap.skipped}.`);
  } else if (cap?.skipped) {
    lines.push(`- Capacity not measured: ${cap.skipped}.`);
  }
  if (r.browser && !r.browser.error) {
    const b = r.browser;
    lines.push("");
    lines.push(
      `Browser: sign-in ${ms(b.signInMs, 0)}; first open of the history channel ${ms(b.first.ms, 0)} to the frame after ${b.first.count} messages were in the list (${ms(b.first.domMs, 0)} to the DOM), re-open ${ms(b.again.ms, 0)}; the same page as JSON through the web server takes ${ms(b.apiPageMs, 0)}. Assets loaded by the session: ${b.assets.files.map((f) => f.replace(/^build\/client\//, "")).join(", ")}.`,
    );
  }
  if (r.historySetup) {
    lines.push("");
    lines.push(
      `History set-up: ${r.config.historyMessages} messages posted through the web server in ${n(r.historySetup.seconds, 1)} s with 4 in flight and no live stream open (open fds then: PocketBase ${r.historySetup.fds.pocketbase}, web ${r.historySetup.fds.web}).`,
    );
  }
  if (r.signups) {
    lines.push("");
    lines.push(
      `Set-up: ${r.signups.full} sign-ups the browser's way (PBKDF2 600k, RSA-2048 and P-384 keys, wrapping) took ${n(r.signups.seconds, 1)} s at concurrency 4` +
        (r.signups.listeners !== undefined
          ? `; ${r.signups.listeners} listening accounts (same endpoint, no client-side derivation) and their joins took ${n(r.signups.listenerSeconds, 1)} s.`
          : "."),
    );
  }
  return lines.join("\n");
}

function maxOther(r) {
  const windows = [
    ...Object.values(r.latency ?? {}).map((e) => e.web.cpu),
    r.fanout?.web.cpu,
    ...(r.capacity?.levels ?? []).map((l) => l.cpu),
  ].filter(Boolean);
  return Math.max(0, ...windows.map((w) => w.other));
}

export function writeReport(root, r) {
  const table = formatTable(r);
  const memGiB = os.totalmem() / 2 ** 30;
  const other = maxOther(r);
  const noise =
    other > 20
      ? `Other processes on the machine used up to ${n(other)}% of a core during the measuring windows (e.g. test suites running at the same time), so the figures are noisy; compare runs on a quiet machine.`
      : `Other processes used at most ${n(other)}% of a core during the measuring windows.`;
  const section = [
    START,
    "",
    `Run ${r.started} of commit ${r.code ?? "unknown"} (${r.quick ? "quick mode, reduced sizes" : "full sizes"}${r.phases && r.phases.length < 4 ? `, phases: ${r.phases.join(", ")}` : ""}), ${n(r.seconds)} s in total, on ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim() ?? "unknown CPU"}), ${n(memGiB, 1)} GiB memory, Node ${process.version}. ${noise}`,
    "",
    table,
    "",
    "Evidence from the same run:",
    "",
    evidence(r),
    "",
    END,
  ].join("\n");

  const file = path.join(root, "docs", "benchmarks.md");
  let doc = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (doc.includes(START) && doc.includes(END)) {
    doc = doc.slice(0, doc.indexOf(START)) + section + doc.slice(doc.indexOf(END) + END.length);
  } else {
    doc = `# Benchmarks\n\n\`npm run bench\` measures the real stack on loopback.\n\n## Latest run\n\n${section}\n`;
  }
  writeFileSync(file, doc);
  return table;
}
