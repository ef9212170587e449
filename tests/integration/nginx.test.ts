import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../ports";
import { repoRoot, startPocketBase, type RunningPocketBase } from "./pocketbase";
import {
  createWebChannel,
  ensureWebBuilt,
  joinWebChannel,
  listen,
  postWebMessage,
  signedInPage,
  startWeb,
  type WebServer,
} from "./live-pages";

// Two web processes behind a real nginx, configured with the proxy settings the compose "scale"
// profile ships (deploy/nginx/chatcrypt-locations.conf). A "pin" cookie sends a user to one process,
// so users on different processes talk live: each message crosses PocketBase's relay.
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

let pb: RunningPocketBase;
let webA: WebServer;
let webB: WebServer;
let proxy: { url: string; stop(): Promise<void>; log(): Promise<string> };

async function startNginx(upstreams: { a: string; b: string }) {
  const prefix = await mkdtemp(path.join(os.tmpdir(), "chatcrypt-nginx-"));
  await chmod(prefix, 0o755);
  for (const dir of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) await mkdir(path.join(prefix, dir));
  const port = await freePort();
  const host = (url: string) => new URL(url).host;
  const conf = `
daemon off;
master_process on;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream web_a { server ${host(upstreams.a)}; keepalive 8; }
  upstream web_b { server ${host(upstreams.b)}; keepalive 8; }
  upstream web_pool { least_conn; server ${host(upstreams.a)}; server ${host(upstreams.b)}; keepalive 8; }
  map $cookie_pin $chatcrypt_backend { default web_pool; a web_a; b web_b; }
  server {
    listen 127.0.0.1:${port};
    add_header X-Upstream $upstream_addr always;
    include ${path.join(repoRoot, "deploy", "nginx", "chatcrypt-locations.conf")};
  }
}
`;
  await writeFile(path.join(prefix, "nginx.conf"), conf);
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log")], {
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  const log = () => readFile(path.join(prefix, "error.log"), "utf8").catch(() => "");
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited during start-up:\n${await log()}`);
    const ok = await fetch(`${url}/`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${await log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM"); // fast shutdown: open live streams would hold a graceful one
        await exited;
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}

beforeAll(async () => {
  await promisify(execFile)("bash", [path.join(repoRoot, "scripts", "install-nginx.sh")]);
  await ensureWebBuilt();
  pb = await startPocketBase();
  const sessionSecret = randomBytes(32).toString("base64url");
  const env = { WEB_PROCESSES: "1", TRUST_PROXY: "1" };
  [webA, webB] = await Promise.all([startWeb(pb.url, { sessionSecret, env }), startWeb(pb.url, { sessionSecret, env })]);
  proxy = await startNginx({ a: webA.url, b: webB.url });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([proxy?.stop(), webA?.stop(), webB?.stop()]);
  await pb?.stop();
});

/** Which web process nginx sent a request with these cookies to (its upstream address). */
async function servedBy(cookie: string): Promise<string | null> {
  const res = await fetch(`${proxy.url}/`, { headers: { Cookie: cookie } });
  await res.arrayBuffer();
  return res.headers.get("x-upstream");
}

describe("two web processes behind nginx", () => {
  it("users on different processes talk live, both ways", async () => {
    const alice = await signedInPage(proxy.url, { pin: "a" });
    const bob = await signedInPage(proxy.url, { pin: "b" });
    expect(await servedBy(alice.cookieHeader())).toBe(new URL(webA.url).host);
    expect(await servedBy(bob.cookieHeader())).toBe(new URL(webB.url).host);

    const channel = await createWebChannel(alice);
    await joinWebChannel(bob, channel);
    const aliceLive = await listen(alice, channel.id);
    const bobLive = await listen(bob, channel.id);
    expect(aliceLive.headers["x-upstream"]).toBe(new URL(webA.url).host);
    expect(bobLive.headers["x-upstream"]).toBe(new URL(webB.url).host);

    await postWebMessage(alice, channel.id, "from alice on A");
    await expect.poll(() => bobLive.texts()).toEqual(["from alice on A"]);
    await postWebMessage(bob, channel.id, "from bob on B");
    await expect.poll(() => aliceLive.texts()).toEqual(["from alice on A", "from bob on B"]);
    await expect.poll(() => bobLive.texts()).toEqual(["from alice on A", "from bob on B"]);
    aliceLive.close();
    bobLive.close();
  });

  it("streams over the shared pool reach users wherever their stream landed, and nobody else", async () => {
    const [owner, ...members] = await Promise.all(Array.from({ length: 5 }, () => signedInPage(proxy.url)));
    const outsider = await signedInPage(proxy.url);
    const channel = await createWebChannel(owner);
    for (const member of members) await joinWebChannel(member, channel);
    const streams = await Promise.all(members.map((m) => listen(m, channel.id)));
    const outsiderLive = await listen(outsider);
    // least_conn spreads the open streams over both processes
    expect(new Set(streams.map((s) => s.headers["x-upstream"]))).toEqual(new Set([new URL(webA.url).host, new URL(webB.url).host]));

    await postWebMessage(owner, channel.id, "to everyone");
    for (const s of streams) await expect.poll(() => s.texts()).toEqual(["to everyone"]);
    await new Promise((r) => setTimeout(r, 300));
    expect(outsiderLive.texts()).toEqual([]);
    for (const s of [...streams, outsiderLive]) s.close();
  });

  it("keeps live streams unbuffered through the proxy", async () => {
    const alice = await signedInPage(proxy.url, { pin: "a" });
    const res = await fetch(`${proxy.url}/api/events`, { headers: { Cookie: alice.cookieHeader() } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const first = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
    expect(first && new TextDecoder().decode(first.value)).toContain('"type":"sync"');
    await reader.cancel();
    expect(await proxy.log()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});
