// The capacity ramp's simulated pages beyond the first few: bench/listener (Go), one TCP connection
// per page, whose arrivals it times on CLOCK_MONOTONIC against the send times passed in here. A
// Node socket costs about twice the CPU per received event, and the bench shares the machine with
// what it measures.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

// performance.now() and process.hrtime read the same monotonic clock (libuv's uv_hrtime).
const hrOffsetNs = Number(process.hrtime.bigint()) - performance.now() * 1e6;

export class Listener {
  static async start(root, dir) {
    const binary = path.join(dir, "bench-listener");
    await execFileAsync("go", ["build", "-o", binary, "."], {
      cwd: path.join(root, "bench", "listener"),
      env: { ...process.env, GOTOOLCHAIN: "local" },
    });
    return new Listener(spawn(binary, [], { stdio: ["pipe", "pipe", "inherit"] }));
  }

  constructor(child) {
    this.child = child;
    this.waiting = [];
    createInterface({ input: child.stdout }).on("line", (line) => this.waiting.shift()?.(JSON.parse(line)));
  }

  get pid() {
    return this.child.pid;
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

  /** Opens one stream per cookie; resolves with { ok, failed, error } once each got "sync" or failed. */
  open(baseUrl, pathAndQuery, cookies, concurrency) {
    return this.ask({ op: "open", addr: new URL(baseUrl).host, path: pathAndQuery, cookies, concurrency });
  }

  begin() {
    this.send({ op: "begin" });
  }

  /** A message was sent at `t` (performance.now() milliseconds). */
  sent(iv, t) {
    this.send({ op: "sent", iv, t: Math.round(t * 1e6 + hrOffsetNs) });
  }

  async delivered() {
    return (await this.ask({ op: "count" })).delivered;
  }

  /** { delivered, expected, ended, latencies (ms) } of the round. */
  end() {
    return this.ask({ op: "end" });
  }

  close() {
    this.send({ op: "close" });
    this.child.stdin.end();
  }
}
