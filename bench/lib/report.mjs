// The bench's one table, and the "Latest run" section of docs/benchmarks.md (the text between the
// markers is replaced on every run; the rest of the file is kept; every run's figures are also added
// to the run log, run-log.mjs).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { evidence } from "./report-evidence.mjs";
import { appendRun, hasWindows, runEntry } from "./run-log.mjs";
import { retentionRows } from "./retention.mjs";
import { ssoRows } from "./sso.mjs";
import { capacityRows } from "./report-capacity.mjs";
import { ms, n, yes } from "./format.mjs";

const START = "<!-- bench:latest:start -->";
const END = "<!-- bench:latest:end -->";

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
      "≤ raw + 1.5 ms",
      yes(web.post.p50 - base.post.p50 <= 1.5),
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

  out.push(...capacityRows(r));

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

  out.push(...historyPageRows(r));
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
      "≤ 140 KB",
      yes(b.assets.js / 1024 <= 140),
    ]);
    out.push(["first load CSS (gzip)", `${n(b.assets.css / 1024, 1)} KB`, `${n(b.assets.cssRaw / 1024, 1)} KB raw`, "—", "—"]);
    out.push([
      "sign-in (click to workspace)",
      ms(b.signInMs, 0),
      `PBKDF2 600k in Node ${ms(r.pbkdf2NodeMs, 0)}`,
      "≤ 500 ms",
      yes(b.signInMs <= 500),
    ]);
  } else {
    out.push(["history / first load / sign-in", `not measured: ${b?.error ?? "skipped"}`, "—", "—", "—"]);
  }
  const s = r.scroll;
  if (s && !s.error)
    out.push([
      `history: scroll ${n(s.loaded)} loaded messages bottom to top, frame p95`,
      ms(s.p95, 1),
      `p50 ${ms(s.p50, 1)}, ${n(s.frames)} frames, ${n(s.over16)} over 16 ms${s.reachedTop ? "" : ", top not reached"}`,
      "≤ 16 ms",
      yes(s.reachedTop && s.p95 <= 16),
    ]);
  else out.push(["history: scroll 10,000 loaded messages", `not measured: ${s?.error ?? "skipped"}`, "—", "—", "—"]);
  out.push(...searchRows(r));
  out.push(...ssoRows(r));
  out.push(...retentionRows(r));
  return out;
}

/** The history page as JSON (issue 29, item 1): p50 at the bench's history size and in the deep channel. */
function historyPageRows(r) {
  const h = r.historyPages;
  if (!h) return [];
  if (h.error) return [["history page (200 with edits, reactions, files, previews)", `not measured: ${h.error}`, "—", "—", "—"]];
  return [h.shallow, h.deep].map((x) => [
    `history page p50, 200 with edits, reactions, files, previews, of ${n(x.total)} (JSON via the web server)`,
    ms(x.p50, 1),
    `p95 ${ms(x.p95, 1)}`,
    "≤ 30 ms",
    yes(x.p50 <= 30),
  ]);
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
      "≤ 300 ms",
      yes(opened.ms <= 300),
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

function maxOther(r) {
  const windows = [
    ...Object.values(r.latency ?? {}).map((e) => e.web.cpu),
    r.fanout?.web.cpu,
    ...(r.capacity?.levels ?? []).flatMap((l) => (l.rounds ?? []).map((x) => x.cpu)),
  ].filter(Boolean);
  return Math.max(0, ...windows.map((w) => w.other));
}

/**
 * What the run can say about the rest of the machine: the other processes' use in the measuring
 * windows (latency, fan-out, capacity), else only the load average at the end (which counts the
 * bench's own browser too).
 */
export function machineNote(r, other, loadAverage) {
  if (!hasWindows(r))
    return `No phase with measuring windows ran, so the other processes' use of the machine was not measured; the load average was ${loadAverage.toFixed(1)} at the end, the bench's own browser included.`;
  return other > 20
    ? `Other processes on the machine used up to ${n(other)}% of a core during the measuring windows (e.g. test suites running at the same time), so the figures are noisy; compare runs on a quiet machine.`
    : `Other processes used at most ${n(other)}% of a core during the measuring windows.`;
}

export function writeReport(root, r) {
  const table = formatTable(r);
  const memGiB = os.totalmem() / 2 ** 30;
  const other = maxOther(r);
  const noise = machineNote(r, other, os.loadavg()[0]);
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
  appendRun(root, runEntry(r, rows(r), other));
  return table;
}
