// The report's evidence: how each figure was measured, the CPU and memory behind it (report.mjs).
import { n, ms } from "./format.mjs";

export function evidence(r) {
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
      `Capacity ramp: every client in one channel; at each level ${r.config.capacitySenders} of them send ${rates} (a rate is no longer tried above the level where it broke). The first ${r.config.capacityVerifying} clients verify and decrypt every message in the bench process; the others are streams held by bench/listener (Go, one TCP connection each, spread over ${n((cap.benchPids?.length ?? 2) - 1)} process${(cap.benchPids?.length ?? 2) > 2 ? "es, each connecting from its own loopback address" : ""}), which times the receipt. CPU in % of one core during the sending window (web: all processes, then each, supervisor first; bench: the Node process, then the listeners); RSS after the window. Web tier: ${r.webProcesses} process${r.webProcesses > 1 ? "es" : ""}; file-descriptor limit ${n(r.fdLimit)} per process.`,
    );
    lines.push("");
    lines.push(
      "| clients | streams opened in (CPU PB / web / bench) | rate | p50 | p99 | lost | POST p50 / p99 | CPU PB | CPU web (each) | CPU bench (each) | CPU other | CPU ms per message PB / web | RSS PB | RSS web (each) | RSS bench (each) | open fds PB / web (each) / bench (each) |",
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
      const each = (list) => (list && list.length > 1 ? ` (${list.map((v) => n(v)).join(" + ")})` : "");
      const fds = l.idle?.fds
        ? `${n(l.idle.fds.pocketbase)} / ${n(l.idle.fds.web)}${each(l.idle.fdsEach?.web)} / ${n(l.idle.fds.bench)}${each(l.idle.fdsEach?.bench)}`
        : "";
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
      `Browser: sign-in ${ms(b.signInMs, 0)}; first open of the history channel ${ms(b.first.ms, 0)} to the frame after ${b.first.count} messages were in the list (${ms(b.first.domMs, 0)} to the DOM; the newest messages in view at ${ms(b.first.inViewMs, 0)}), re-open (shown from memory) ${ms(b.again.ms, 0)} to all mounted, median of 3 ${ms(b.again.medianMs, 0)}, the newest in view ${ms(b.again.inViewMedianMs, 0)}; the same page as JSON through the web server takes ${ms(b.apiPageMs, 0)}. Assets loaded by the session: ${b.assets.files.map((f) => f.replace(/^build\/client\//, "")).join(", ")}.`,
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
