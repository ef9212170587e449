// The capacity ramp's simulated pages beyond the first few: bench/listener (Go), one TCP connection
// per page, whose arrivals it times on CLOCK_MONOTONIC against the send times passed in here. A
// Node socket costs about twice the CPU per received event, and the bench shares the machine with
// what it measures.
//
// One listener process holds at most what its open-file limit allows (often 20,000), and one source
// address has only the ephemeral port range (about 28,000 ports) of connections to the web server's
// address and port. Past STREAMS_PER_PROCESS, the streams are spread over several processes, process
// k connecting from 127.0.0.(k+1) (Linux routes all of 127/8 to the loopback interface).
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

// performance.now() and process.hrtime read the same monotonic clock (libuv's uv_hrtime).
const hrOffsetNs = Number(process.hrtime.bigint()) - performance.now() * 1e6;

/**
 * Streams one listener process holds at most: well under its open-file limit and the ephemeral ports
 * (BENCH_STREAMS_PER_LISTENER overrides it, e.g. to try several processes in a quick run).
 */
export const STREAMS_PER_PROCESS = Number(process.env.BENCH_STREAMS_PER_LISTENER) || 15_000;

/** Listener processes needed for `streams` streams. */
export const processesFor = (streams) => Math.max(1, Math.ceil(streams / STREAMS_PER_PROCESS));

/** The loopback address listener process `k` connects from. */
export const sourceAddress = (k) => `127.0.0.${k + 1}`;

/** One bench/listener process. */
class ListenerProcess {
  constructor(child) {
    this.child = child;
    this.waiting = [];
    createInterface({ input: child.stdout }).on("line", (line) => this.waiting.shift()?.(JSON.parse(line)));
  }

  send(command) {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  ask(command) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.send(command);
    });
  }

  close() {
    this.send({ op: "close" });
    this.child.stdin.end();
  }
}

/**
 * The listener processes of a ramp, used as one: streams are dealt out in turn (stream g to process
 * g mod n), sends are told to every process, and the rounds' figures are added up.
 */
export class Listener {
  /** Builds bench/listener and starts enough processes for `streams` streams (at least one). */
  static async start(root, dir, streams = 0) {
    const binary = path.join(dir, "bench-listener");
    await execFileAsync("go", ["build", "-o", binary, "."], {
      cwd: path.join(root, "bench", "listener"),
      env: { ...process.env, GOTOOLCHAIN: "local" },
    });
    const count = processesFor(streams);
    // One process keeps the kernel's choice of source address, as before the ramp needed more.
    const args = (k) => (count > 1 ? ["-source", sourceAddress(k)] : []);
    return new Listener(
      Array.from({ length: count }, (_, k) => new ListenerProcess(spawn(binary, args(k), { stdio: ["pipe", "pipe", "inherit"] }))),
    );
  }

  constructor(processes) {
    this.processes = processes;
    this.dealt = 0;
  }

  get pids() {
    return this.processes.map((p) => p.child.pid);
  }

  /** Opens one stream per cookie; resolves with { ok, failed, error } once each got "sync" or failed. */
  async open(baseUrl, pathAndQuery, cookies, concurrency) {
    const n = this.processes.length;
    const shares = this.processes.map(() => []);
    for (const cookie of cookies) shares[this.dealt++ % n].push(cookie);
    const addr = new URL(baseUrl).host;
    const each = Math.max(1, Math.ceil(concurrency / n));
    const answers = await Promise.all(
      this.processes.map((p, k) =>
        shares[k].length ? p.ask({ op: "open", addr, path: pathAndQuery, cookies: shares[k], concurrency: each }) : { ok: 0, failed: 0 },
      ),
    );
    return {
      ok: answers.reduce((sum, a) => sum + a.ok, 0),
      failed: answers.reduce((sum, a) => sum + a.failed, 0),
      error: answers.find((a) => a.error)?.error ?? "",
    };
  }

  begin() {
    for (const p of this.processes) p.send({ op: "begin" });
  }

  /** A message was sent at `t` (performance.now() milliseconds). */
  sent(iv, t) {
    const command = { op: "sent", iv, t: Math.round(t * 1e6 + hrOffsetNs) };
    for (const p of this.processes) p.send(command);
  }

  async delivered() {
    const answers = await Promise.all(this.processes.map((p) => p.ask({ op: "count" })));
    return answers.reduce((sum, a) => sum + a.delivered, 0);
  }

  /** { delivered, expected, ended, latencies (ms) } of the round, over every process. */
  async end() {
    const answers = await Promise.all(this.processes.map((p) => p.ask({ op: "end" })));
    return {
      delivered: answers.reduce((sum, a) => sum + a.delivered, 0),
      expected: answers.reduce((sum, a) => sum + a.expected, 0),
      ended: answers.reduce((sum, a) => sum + a.ended, 0),
      latencies: answers.length === 1 ? answers[0].latencies : answers.flatMap((a) => a.latencies),
    };
  }

  close() {
    for (const p of this.processes) p.close();
  }
}
