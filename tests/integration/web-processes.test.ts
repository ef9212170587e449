import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebChannel, joinWebChannel, listen, postWebMessage, signedInPage, startLiveStack, type WebServer } from "./live-pages";

// WEB_PROCESSES: one web server, several processes on its port (server/processes.mjs), each with its
// own relay connection to PocketBase.
let web: WebServer;
let stack: Awaited<ReturnType<typeof startLiveStack>> | undefined;

beforeAll(async () => {
  stack = await startLiveStack({ env: { WEB_PROCESSES: "2" } });
  web = stack.web;
});

afterAll(() => stack?.stop());

/** The processes whose parent is `pid` (Linux /proc). */
function children(pid: number | undefined): number[] {
  if (!pid) return [];
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("several web processes on one port", () => {
  it("serves streams from every process, replaces a process that dies, and stops them all", async () => {
    await expect.poll(() => children(web.pid()).length, { timeout: 10_000 }).toBe(2);
    const workers = children(web.pid());

    const [alice, bob] = await Promise.all([signedInPage(web.url), signedInPage(web.url)]);
    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    // Connections go to the processes in turn: six streams land on both.
    const streams = await Promise.all([alice, bob, alice, bob, alice, bob].map((page) => listen(page, channel.id)));
    await postWebMessage(alice, channel.id, "to every process");
    for (const s of streams) await expect.poll(() => s.texts()).toEqual(["to every process"]);

    // One process dies: its streams end, another process takes its place, and streams opened again work.
    process.kill(workers[0], "SIGKILL");
    await expect.poll(() => streams.filter((s) => s.ended()).length, { timeout: 5_000 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(streams.filter((s) => s.ended()).length).toBeLessThan(streams.length); // the other process's streams stay
    await expect.poll(() => children(web.pid()).filter((pid) => !workers.includes(pid)).length, { timeout: 10_000 }).toBe(1);
    const again = await Promise.all([alice, bob, alice, bob].map((page) => listen(page, channel.id)));
    await postWebMessage(bob, channel.id, "after the restart");
    for (const s of again) await expect.poll(() => s.texts()).toEqual(["after the restart"]);
    for (const s of [...streams, ...again]) s.close();

    const all = [web.pid()!, ...children(web.pid())];
    await web.stop();
    await expect.poll(() => all.filter(alive), { timeout: 10_000 }).toEqual([]);
  });
});
