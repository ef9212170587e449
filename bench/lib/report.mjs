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
    const lost = web.lost ? ` (${web.lost} lost)` : "";
    const t = web.transport.p50 / base.p50;
    out.push([
      `delivery p50, ${level} clients (POST to event, as the baseline)`,
      `${ms(web.transport.p50)}${lost}`,
      `${ms(base.p50)} (ratio ${n(t, 2)}×)`,
      "≤ 1.5× baseline",
      yes(t <= 1.5),
    ]);
    const d = web.decrypted.p50 / base.p50;
    out.push([
      `delivery p50, ${level} clients (encrypt to decrypted)`,
      ms(web.decrypted.p50),
      `${ms(base.p50)} (ratio ${n(d, 2)}×)`,
      "—",
      "—",
    ]);
    out.push([
      `POST p50 through the web server, ${level} clients`,
      ms(web.post.p50),
      `raw create ${ms(base.post.p50)} (+${n(web.post.p50 - base.post.p50, 1)} ms)`,
      "≤ raw + 2 ms",
      yes(web.post.p50 - base.post.p50 <= 2),
    ]);
    out.push([`delivery p95, ${level} clients (POST to event)`, ms(web.transport.p95), ms(base.p95), "—", "—"]);
    const p99Target = level === 100;
    out.push([
      `delivery p99, ${level} clients (POST to event)`,
      ms(web.transport.p99),
      ms(base.p99),
      p99Target ? "≤ 100 ms" : "—",
      p99Target ? yes(web.transport.p99 <= 100) : "—",
    ]);
  }

  const cap = r.capacity ?? { levels: [] };
  const targets = { 5: 10_000, 50: 5_000 };
  for (const { rate } of r.config.capacityRates ?? []) {
    const held = cap.held?.[rate];
    const failedAt = cap.failed?.[rate];
    const measured = held
      ? `${n(held)} clients${failedAt ? ` (broke at ${n(failedAt)})` : cap.stopped ? ` (${cap.stopped})` : ""}`
      : cap.levels.length
        ? `< ${n(cap.levels[0].level)} clients`
        : `not measured${cap.skipped ? ` (${cap.skipped})` : ""}`;
    const target = targets[rate];
    out.push([
      `capacity at ${rate} msg/s (p99 < ${r.config.capacityP99Ms} ms, nothing lost)`,
      measured,
      "—",
      target ? `≥ ${n(target)} clients` : "—",
      target ? yes((held ?? 0) >= target) : "—",
    ]);
  }
  const at10k = cap.levels.find((l) => l.level === 10_000 && !l.incomplete);
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

  if (r.typing) {
    out.push([
      `typing indicator: POST to the other page's stream (${n(r.typing.heard)}/${n(r.typing.sent)} heard)`,
      `p50 ${ms(r.typing.p50, 1)}, p95 ${ms(r.typing.p95, 1)}`,
      "—",
      "≤ 1,000 ms",
      yes(r.typing.heard === r.typing.sent && r.typing.p95 <= 1000),
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
    if (b.first.inViewMs !== null && b.first.inViewMs !== undefined)
      out.push([
        "history: open channel, the newest messages in view",
        ms(b.first.inViewMs, 0),
        "—",
        "≤ 150 ms",
        yes(b.first.inViewMs <= 150),
      ]);
    const reopen = b.again.inViewMedianMs ?? b.again.ms;
    out.push([
      "history: re-open (opened before), the newest in view, median of 3",
      ms(reopen, 0),
      `all ${n(b.first.count)} mounted ${ms(b.again.medianMs ?? b.again.ms, 0)}`,
      "≤ 50 ms",
      yes(reopen <= 50),
    ]);
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
    if (b.withMarkdown) {
      const m = b.withMarkdown;
      out.push([
        `history in Markdown (${n(m.codeBlocks)} code blocks): re-open`,
        `${ms(m.againMs, 0)} (${n(m.ratio, 2)}x)`,
        `plain ${ms(m.plainAgainMs, 0)}`,
        "≤ 1.3x",
        yes(m.ratio <= 1.3),
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
  out.push(...searchRows(r));
  return out;
}

/** The search phase's rows (issue 14): index build rate, query p95, IndexedDB size, search to opened message. */
export function searchRows(r) {
  const s = r.search;
  if (!s) return [];
  if (s.error) return [["search", `not measured: ${s.error}`, "—", "—", "—"]];
  const { index, opened } = s;
  return [
    ["search: index build rate (chromium)", `${n(index.buildRate)} messages/s`, `${n(index.messages)} messages`, "—", "—"],
    [
      `search: query p95 over ${n(index.messages)} messages`,
      ms(index.queryP95, 1),
      `p50 ${ms(index.queryP50, 1)}`,
      "≤ 50 ms",
      yes(index.queryP95 <= 50),
    ],
    [
      "search: IndexedDB size per 10,000 messages",
      `${n(index.bytesPer10k / 2 ** 20, 2)} MiB sealed`,
      `storage usage ${n(index.usageBytesPer10k / 2 ** 20, 2)} MiB`,
      "—",
      "—",
    ],
    [
      `search: result to opened message (oldest of ${n(opened.historyMessages)})`,
      ms(opened.ms, 0),
      `backfill after sign-in ${ms(opened.backfillMs, 0)}`,
      "—",
      "—",
    ],
  ];
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
      `- Latency, ${level} clients (${r.config.latencyMessages} messages at ${r.config.latencyRate}/s): encrypt + sign p50 ${ms(e.web.encrypt.p50, 2)}; POST through the web server p50 ${ms(e.web.post.p50)} / p99 ${ms(e.web.post.p99)} against a raw PocketBase create p50 ${ms(e.base.post.p50)} / p99 ${ms(e.base.post.p99)}; send (before encryption) to event parsed from /api/events p50 ${ms(e.web.arrival.p50)} / p99 ${ms(e.web.arrival.p99)} (from the POST's start: p50 ${ms(e.web.transport?.p50)} / p99 ${ms(e.web.transport?.p99)}); verify + decrypt on arrival p50 ${ms(e.web.verifyDecrypt.p50, 2)} / p99 ${ms(e.web.verifyDecrypt.p99, 2)} (on ${r.config.latencyVerifying} verifying clients; send to decrypted p50 ${ms(e.web.decrypted?.p50)}); ${e.web.n} deliveries (${e.web.lost} lost, ${e.web.bad} failed verification). CPU (% of one core): ${cpu(e.web.cpu)}.`,
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
    const rates = (r.config.capacityRates ?? []).map((x) => `${x.rate} messages/s for ${x.seconds} s`).join(", then ");
    lines.push("");
    lines.push(
      `Capacity ramp: every client in one channel; at each level ${r.config.capacitySenders} of them send ${rates} (a rate is no longer tried above the level where it broke). The first ${r.config.capacityVerifying} clients verify and decrypt every message in the bench process; the others are streams held by bench/listener (Go, one TCP connection each), which times the receipt. CPU in % of one core during the sending window (web: all processes, then each, supervisor first; bench: the Node process, then the listener); RSS after the window. Web tier: ${r.webProcesses} process${r.webProcesses > 1 ? "es" : ""}; file-descriptor limit ${n(r.fdLimit)}.`,
    );
    lines.push("");
    lines.push(
      "| clients | streams opened in (CPU PB / web / bench) | rate | p50 | p99 | lost | POST p50 / p99 | CPU PB | CPU web (each) | CPU bench (each) | CPU other | CPU ms per message PB / web | RSS PB | RSS web (each) | RSS bench (each) | open fds PB / web / bench |",
    );
    lines.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const l of cap.levels) {
      const opened = `${n(l.openSeconds, 1)} s (${n(l.openCpu?.pocketbase)}% / ${n(l.openCpu?.web)}% / ${n(l.openCpu?.bench)}%)`;
      if (l.incomplete) {
        lines.push(
          `| ${n(l.level)} | only ${n(l.open)} opened (${l.failed} failed): ${opened} | | | | | | | | | | | ${n(l.rss?.pocketbase)} MB | ${n(l.rss?.web)} MB | ${n(l.rss?.bench)} MB | |`,
        );
        continue;
      }
      const fds = l.idle?.fds ? `${n(l.idle.fds.pocketbase)} / ${n(l.idle.fds.web)} / ${n(l.idle.fds.bench)}` : "";
      for (const x of l.rounds) {
        const perMessage = (pct) => ((pct / 100) * x.cpu.seconds * 1000) / Math.max(1, x.messages);
        lines.push(
          `| ${n(l.level)} | ${opened} | ${x.rate}/s | ${ms(x.p50, 0)} | ${ms(x.p99, 0)} | ${n(x.lost)} of ${n(x.expected)}${x.errors ? ` (${x.errors} posts failed)` : ""} | ${ms(x.post.p50, 0)} / ${ms(x.post.p99, 0)} | ${n(x.cpu.pocketbase)}% | ${n(x.cpu.web)}% (${x.cpu.perProcess.web.map((v) => n(v)).join(" + ")}) | ${n(x.cpu.bench)}% (${x.cpu.perProcess.bench.map((v) => n(v)).join(" + ")}) | ${n(x.cpu.other)}% | ${n(perMessage(x.cpu.pocketbase), 1)} / ${n(perMessage(x.cpu.web), 1)} | ${n(x.rss.pocketbase)} MB | ${n(x.rss.web)} MB (${x.rss.webEach.map((v) => n(v)).join(" + ")}) | ${n(x.rss.bench)} MB (${x.rss.benchEach.map((v) => n(v)).join(" + ")}) | ${fds} |`,
        );
      }
    }
    if (cap.stopped) lines.push(`\nRamp stopped: ${cap.stopped}.`);
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
      `History set-up: ${r.config.historyMessages} messages posted through the web server in ${n(r.historySetup.seconds, 1)} s with 4 in flight and no live stream open (open fds then: PocketBase ${r.historySetup.fds.pocketbase}, web ${r.historySetup.fds.web}). PocketBase's database (with its write-ahead log) grew by ${n(r.historySetup.bytesPerMessage)} bytes per message, to ${n(r.historySetup.databaseBytes / 2 ** 20, 1)} MiB in all.`,
    );
  }
  if (r.signups) {
    lines.push("");
    lines.push(
      `Set-up: ${r.signups.full} sign-ups the browser's way (PBKDF2 600k, RSA-2048 and P-384 keys, wrapping) took ${n(r.signups.seconds, 1)} s at concurrency 4` +
        (r.signups.listeners !== undefined
          ? `; ${n(r.signups.listeners)} listening accounts (written into PocketBase's data before it started, see bench/lib/seed.mjs) got their tokens, session cookies and memberships in ${n(r.signups.listenerSeconds, 1)} s.`
          : "."),
    );
  }
  return lines.join("\n");
}

function maxOther(r) {
  const windows = [
    ...Object.values(r.latency ?? {}).map((e) => e.web.cpu),
    r.fanout?.web.cpu,
    ...(r.capacity?.levels ?? []).flatMap((l) => (l.rounds ?? []).map((x) => x.cpu)),
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
    `Run ${r.started} of commit ${r.code ?? "unknown"} (${r.quick ? "quick mode, reduced sizes" : "full sizes"}${r.phases && r.phases.length < 5 ? `, phases: ${r.phases.join(", ")}` : ""}), ${n(r.seconds)} s in total, on ${os.cpus().length} cores (${os.cpus()[0]?.model?.trim() ?? "unknown CPU"}), ${n(memGiB, 1)} GiB memory, Node ${process.version}. ${noise}`,
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
