// The SSRF guard of POST /api/chat/link-preview, against the real PocketBase. Only one loopback
// host:port is allowlisted (the test's own site); every other target is refused before any
// connection is made, so no request ever leaves this machine. Refusals answer 200
// {success:false}; URLs with other schemes answer 400.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";
import { BIG_BODY_BYTES, hostsFileLoopbackNames, startSite, startTrap, type Site } from "./ssrf-site";

const ROUTE = "/api/chat/link-preview";
const REFUSED = { success: false, message: "This address cannot be previewed." };

let site: Site;
let trap: Awaited<ReturnType<typeof startTrap>>;
let pb: RunningPocketBase;
let pbPort: number;
let user: TestUser;

beforeAll(async () => {
  site = await startSite();
  trap = await startTrap();
  pb = await startPocketBase({ env: { LINK_PREVIEW_ALLOW_HOSTS: `127.0.0.1:${site.port}` } });
  pbPort = Number(new URL(pb.url).port);
  user = await signUpUser(pb.url);
});

afterAll(async () => {
  await pb?.stop();
  await new Promise((resolve) => site?.server.close(resolve));
  site?.server.closeAllConnections();
  await new Promise((resolve) => trap?.server.close(resolve));
});

async function preview(url: string) {
  const res = await postJson(pb.url, ROUTE, { url }, user.token);
  return res;
}

async function expectHealthy() {
  const res = await fetch(`${pb.url}/api/health`);
  expect(res.status).toBe(200);
  expect(pb.logs()).not.toMatch(/panic|goroutine \d+ \[/i);
}

describe("the allowlisted site", () => {
  it("is reachable, so refusals below are the guard's doing", async () => {
    const res = await preview(`${site.origin}/`);
    expect(res.json).toEqual({ success: true, title: "Allowed page", description: "", image: "" });
  });
});

describe("refused targets", () => {
  const targets = (): string[] => [
    // the trap: a live loopback server on a port that is not allowlisted
    `http://127.0.0.1:${trap.port}/`,
    `http://2130706433:${trap.port}/`,
    `http://0x7f000001:${trap.port}/`,
    `http://017700000001:${trap.port}/`,
    `http://127.1:${trap.port}/`,
    `http://[::ffff:127.0.0.1]:${trap.port}/`,
    `http://localhost:${trap.port}/`,
    `${site.origin}/go?to=${encodeURIComponent(`http://127.0.0.1:${trap.port}/`)}`,
    `${site.origin}/go?to=${encodeURIComponent(`http://localhost:${trap.port}/`)}`,
    // PocketBase itself
    `http://127.0.0.1:${pbPort}/api/health`,
    `${site.origin}/go?to=${encodeURIComponent(`http://127.0.0.1:${pbPort}/`)}`,
    // other loopback forms and the allowlisted port on another loopback host
    `${site.origin}/go?to=${encodeURIComponent("http://127.0.0.2/")}`,
    `http://127.0.0.2:${site.port}/`,
    `http://localhost:${site.port}/`,
    "http://[::1]/",
    `http://[::1]:${site.port}/`,
    "http://0.0.0.0/",
    "http://0/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://017700000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://localhost/",
    "http://LOCALHOST./",
    "http://ip6-localhost/",
    "http://app.localhost/",
    // private, shared, link-local, metadata, multicast, reserved, broadcast
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:169.254.169.254]/latest/meta-data/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://0xa9fea9fe/",
    "http://10.0.0.1/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://192.0.0.8/",
    "http://198.18.0.1/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://[::ffff:10.0.0.1]/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[fc00::1]/",
    "http://[fd00::1]/",
    "http://[ff02::1]/",
    "http://[::]/",
    "http://[64:ff9b::7f00:1]/",
    "https://127.0.0.1/",
    "https://[::1]:8443/",
    // redirects from the allowed site to the same kinds of targets
    `${site.origin}/go?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
    `${site.origin}/go?to=${encodeURIComponent("http://[::1]/")}`,
    `${site.origin}/go?to=${encodeURIComponent("http://2130706433/")}`,
  ];

  it("answers {success:false} for every target, connecting to none of them", async () => {
    const list = targets();
    expect(list.length).toBeGreaterThanOrEqual(15);
    for (const url of list) {
      const res = await preview(url);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
      expect(res.json, url).toEqual(REFUSED);
    }
    expect(trap.connections()).toBe(0);
    await expectHealthy();
  });

  it("refuses host names that resolve to loopback through the hosts file", async (ctx) => {
    const names = hostsFileLoopbackNames();
    if (names.length === 0) ctx.skip();
    for (const name of names) {
      for (const url of [`http://${name}:${trap.port}/`, `${site.origin}/go?to=${encodeURIComponent(`http://${name}:${trap.port}/`)}`]) {
        const res = await preview(url);
        expect(res.json, url).toEqual(REFUSED);
      }
    }
    expect(trap.connections()).toBe(0);
  });

  it("answers 400 for other schemes, and success:false for redirects to them", async () => {
    for (const url of [
      "file:///etc/passwd",
      "gopher://127.0.0.1:70/_GET%20/",
      "ftp://127.0.0.1/",
      "dict://127.0.0.1:11211/stats",
      "javascript:alert(1)",
      "data:text/html,<title>x</title>",
    ]) {
      const res = await preview(url);
      expect(res.status, url).toBe(400);
      expect(res.json, url).toMatchObject({ message: "url must be an http or https URL." });
    }
    for (const to of ["file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://127.0.0.1/"]) {
      const res = await preview(`${site.origin}/go?to=${encodeURIComponent(to)}`);
      expect(res.json, to).toEqual({ success: false, message: "The page could not be fetched." });
    }
    await expectHealthy();
  });
});

describe("limits", () => {
  it("reads only the first 512 KB of a 10 MB page", async () => {
    const started = Date.now();
    const res = await preview(`${site.origin}/big`);
    expect(Date.now() - started).toBeLessThan(5_000);
    // the title is in the first 512 KB, the description after it: the preview uses the start
    expect(res.json).toEqual({ success: true, title: "Huge page", description: "", image: "" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(site.bigCompleted()).toBe(false);
    expect(site.bigBytesWritten()).toBeLessThan(BIG_BODY_BYTES);
    await expectHealthy();
  });

  it("gives up on pages that never finish after about 5 seconds", async () => {
    const started = Date.now();
    const [slow, hang] = await Promise.all([preview(`${site.origin}/slow`), preview(`${site.origin}/hang`)]);
    const elapsed = Date.now() - started;
    expect(slow.json).toEqual({ success: false, message: "The page took too long to answer." });
    expect(hang.json).toEqual({ success: false, message: "The page took too long to answer." });
    expect(elapsed).toBeGreaterThanOrEqual(4_500);
    expect(elapsed).toBeLessThan(8_000);
    await expectHealthy();
  });

  it("follows 5 redirects but not 6, and stops a redirect loop", async () => {
    expect((await preview(`${site.origin}/chain?n=5`)).json).toMatchObject({ success: true, title: "End of the chain" });
    expect((await preview(`${site.origin}/chain?n=6`)).json).toEqual({
      success: false,
      message: "The page redirects too many times.",
    });
    expect((await preview(`${site.origin}/loop`)).json).toEqual({
      success: false,
      message: "The page redirects too many times.",
    });
    await expectHealthy();
  });

  it("stays healthy under parallel refused and slow previews", async () => {
    const urls = [
      ...Array.from({ length: 10 }, () => "http://169.254.169.254/"),
      ...Array.from({ length: 4 }, () => `${site.origin}/big`),
      `${site.origin}/loop`,
    ];
    const results = await Promise.all(urls.map((url) => preview(url)));
    for (const res of results) {
      expect(res.status).toBe(200);
    }
    await expectHealthy();
  });
});
