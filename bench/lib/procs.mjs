// What the bench reads of a process from /proc: its children, memory, open files and CPU time.
import { readdirSync, readFileSync } from "node:fs";

export function childPids(parent) {
  const out = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out.sort((a, b) => a - b);
}

// ---- process figures from /proc (a pid, or a list of pids whose figures add up) ----
const each = (pids) => (Array.isArray(pids) ? pids : [pids]);
const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux x86_64

/** Resident memory in MB (VmRSS of /proc/<pid>/status), summed over a list of pids. */
export function rssMb(pids) {
  return each(pids).reduce((sum, pid) => sum + rssOne(pid), 0);
}

function rssOne(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** Open file descriptors (sockets included), summed over a list of pids. */
export function fdCount(pids) {
  return each(pids).reduce((sum, pid) => sum + fdOne(pid), 0);
}

function fdOne(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

function cpuTicks(pids) {
  return each(pids).reduce((sum, pid) => sum + cpuOne(pid), 0);
}

function cpuOne(pid) {
  const [user, system] = cpuSplit(pid);
  return user + system;
}

/** [user, system] ticks of a process. */
function cpuSplit(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [Number(fields[11]), Number(fields[12])]; // utime, stime
  } catch {
    return [NaN, NaN];
  }
}

const kernelTicks = (pids) => each(pids).reduce((sum, pid) => sum + cpuSplit(pid)[1], 0);

function systemTicks() {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = line[3] + (line[4] ?? 0);
  const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * CPU use over a window, as % of one core: each named process (or list of processes), the machine as a
 * whole and everything else (other work on the machine, e.g. test suites running at the same time).
 * `perProcess[name]` lists the share of each pid of a list.
 */
export function cpuWindow(pids) {
  const start = {
    at: performance.now(),
    sys: systemTicks(),
    procs: Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuTicks(pid)])),
    each: Object.fromEntries(Object.entries(pids).map(([k, list]) => [k, each(list).map(cpuOne)])),
    kernel: Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, kernelTicks(pid)])),
  };
  return () => {
    const seconds = (performance.now() - start.at) / 1000;
    const sys = systemTicks();
    const out = {};
    let ours = 0;
    for (const [k, pid] of Object.entries(pids)) {
      const ticks = cpuTicks(pid) - start.procs[k];
      ours += ticks;
      out[k] = (ticks / TICKS_PER_SECOND / seconds) * 100;
    }
    const busy = sys.busy - start.sys.busy;
    out.perProcess = Object.fromEntries(
      Object.entries(pids).map(([k, list]) => [
        k,
        each(list).map((pid, i) => ((cpuOne(pid) - start.each[k][i]) / TICKS_PER_SECOND / seconds) * 100),
      ]),
    );
    // of which in the kernel (system time: socket writes and reads, TCP on loopback)
    out.kernel = Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [k, ((kernelTicks(pid) - start.kernel[k]) / TICKS_PER_SECOND / seconds) * 100]),
    );
    out.machine = (busy / TICKS_PER_SECOND / seconds) * 100;
    out.other = Math.max(0, ((busy - ours) / TICKS_PER_SECOND / seconds) * 100);
    out.seconds = seconds;
    return out;
  };
}
