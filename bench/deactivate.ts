// Deactivating a person who is in many sealed channels and direct conversations (BENCH_PHASES=deactivate,
// part of `npm run bench`; run with vite-node; ADR 56): the production web server and PocketBase with
// `npm start`'s settings, and Debian's chromium. The admin (the first account, the owner) and Carol are
// in N conversations, half sealed channels (Carol's device joined each) and half group conversations
// with Bob (Carol's device added by Welcome); only the admin's page is open. Measured: from the admin's
// deactivation request to the last removal of Carol's devices committed to the conversations' groups
// (a sealed channel: one commit; a direct conversation: its new participant list, then the removal),
// read from the groups' latest GroupInfo (its ratchet tree names each leaf's user in the clear). BENCH_DEACTIVATE_SIZES (default "50") sets the ramp.
// Appends its section to docs/benchmarks-sealed.md.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { repoRoot, startPocketBase, superuserClient } from "../tests/integration/pocketbase";
import { startWeb } from "../tests/e2e/stack";

const SIZES = (process.env.BENCH_DEACTIVATE_SIZES ?? (process.env.BENCH_QUICK === "1" ? "10" : "50")).split(",").map(Number);
const TARGET_MS = 10_000;
const GIVE_UP_MS = 120_000;
const SLOW_MS = 60_000;
const log = (line: string) => console.log(`[deactivate] ${line}`);
const tag = () => Math.random().toString(16).slice(2, 10);

/**
 * CPU seconds used so far by each of this process's descendants (PocketBase, the web server, chromium's
 * processes), with its program name: what the machine spent on the measurement, whatever else it ran.
 */
function cpuOfDescendants(): Map<number, { kind: string; cpu: number }> {
  const procs = new Map<number, { parent: number; name: string; cpu: number }>();
  const tick = 100; // USER_HZ
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.set(Number(entry), { parent: Number(rest[1]), name, cpu: (Number(rest[11]) + Number(rest[12])) / tick });
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = procs.get(pid)?.parent; p && p > 1; p = procs.get(p)?.parent) if (p === process.pid) return true;
    return false;
  };
  const out = new Map<number, { kind: string; cpu: number }>();
  for (const [pid, proc] of procs)
    if (mine(pid)) out.set(pid, { kind: /^(chrom|Chrom)/.test(proc.name) ? "chromium" : proc.name, cpu: proc.cpu });
  return out;
}

/** CPU seconds each kind of process used between two samples (a process that ended meanwhile is not counted). */
function cpuBetween(before: Map<number, { kind: string; cpu: number }>, after: Map<number, { kind: string; cpu: number }>) {
  const out = new Map<string, number>();
  for (const [pid, { kind, cpu }] of after) out.set(kind, (out.get(kind) ?? 0) + cpu - (before.get(pid)?.cpu ?? 0));
  return out;
}

async function signUp(browser: Browser, baseURL: string, name: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto("/");
  await page.getByRole("button", { name: "Don't have an account? Sign up" }).click();
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Email").fill(`${name}@example.test`);
  await page.getByLabel("Password").fill(`pw-${name}-long-enough`);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await page.getByText(`@${name}`).waitFor({ state: "attached", timeout: 30_000 });
  await page.getByRole("dialog", { name: "Save your recovery key" }).getByRole("button", { name: "Not now" }).click();
  await page.getByRole("dialog", { name: "Continue without a recovery key?" }).getByRole("button", { name: "Continue without it" }).click();
  return page;
}

/** The admin creates a sealed channel and Carol's device joins it; answers its id. */
async function sealedWithCarol(admin: Page, carol: Page, name: string, idOf: (name: string) => Promise<string>): Promise<string> {
  await admin.getByRole("button", { name: "Create", exact: true }).click();
  const create = admin.getByRole("dialog", { name: "Create Channel" });
  await create.getByLabel("Channel Name").fill(name);
  await create.getByLabel("Password").fill(`pw-${name}`);
  await create.getByLabel("Sealed (forward secrecy; members read from the moment they join)").check();
  await create.getByRole("button", { name: "Create", exact: true }).click();
  await create.waitFor({ state: "hidden", timeout: 30_000 });
  await admin.getByRole("heading", { name: `# ${name}` }).waitFor();
  const id = await idOf(name);
  await carol.getByRole("button", { name: "Join", exact: true }).click();
  const join = carol.getByRole("dialog", { name: "Join Channel" });
  await join.getByLabel("Channel ID").fill(id);
  await join.getByLabel("Password").fill(`pw-${name}`);
  await join.getByRole("button", { name: "Join", exact: true }).click();
  await join.waitFor({ state: "hidden", timeout: 30_000 });
  await carol.locator('main.chat-pane[data-live="true"]').waitFor({ timeout: 30_000 });
  return id;
}

/** The admin starts a group conversation with Carol and Bob (their devices added by Welcome). */
async function groupWithCarol(admin: Page, names: string[], title: string) {
  await admin.getByRole("button", { name: "New message" }).click();
  const dialog = admin.getByRole("dialog", { name: "New message" });
  for (const name of names) await dialog.getByRole("checkbox", { name }).check();
  await dialog.getByLabel("Conversation name (optional)").fill(title);
  await dialog.getByRole("button", { name: "Start conversation" }).click();
  await dialog.waitFor({ state: "hidden", timeout: 30_000 });
  await admin.getByRole("heading", { name: `@ ${title}` }).waitFor({ timeout: 30_000 });
}

async function measure(
  browser: Browser,
  baseURL: string,
  pb: { url: string; superuser: { email: string; password: string } },
  size: number,
) {
  const su = await superuserClient(pb.url, pb.superuser);
  const [adminName, carolName, bobName] = [`boss_${tag()}`, `carol_${tag()}`, `bob_${tag()}`];
  const admin = await signUp(browser, baseURL, adminName);
  const adminId = (await su.collection("profiles").getFirstListItem(su.filter("username = {:n}", { n: adminName }))).id;
  await su.collection("profiles").update(adminId, { role: "admin" });
  const carol = await signUp(browser, baseURL, carolName);
  const bob = await signUp(browser, baseURL, bobName);
  const carolId = (await su.collection("profiles").getFirstListItem(su.filter("username = {:n}", { n: carolName }))).id;
  const setupAt = Date.now();
  const idOf = async (name: string) => (await su.collection("channels").getFirstListItem(su.filter("name = {:n}", { n: name }))).id;
  const sealed: string[] = [];
  for (let i = 0; i < Math.ceil(size / 2); i++) sealed.push(await sealedWithCarol(admin, carol, `s${i}-${tag()}`, idOf));
  // Bob joins the first channel: the people picker offers those who share one
  await bob.getByRole("button", { name: "Join", exact: true }).click();
  const join = bob.getByRole("dialog", { name: "Join Channel" });
  const first = await su.collection("channels").getOne(sealed[0]);
  await join.getByLabel("Channel ID").fill(sealed[0]);
  await join.getByLabel("Password").fill(`pw-${first.name as string}`);
  await join.getByRole("button", { name: "Join", exact: true }).click();
  await join.waitFor({ state: "hidden", timeout: 30_000 });
  for (let i = 0; i < Math.floor(size / 2); i++) await groupWithCarol(admin, [carolName, bobName], `g${i}-${tag()}`);
  await carol.context().close();
  await bob.context().close();
  const direct = (
    await su.collection("channel_members").getFullList({ filter: su.filter("user = {:c} && channel.direct = true", { c: carolId }) })
  ).map((m) => m.channel as string);
  log(
    `${size}: ${sealed.length} sealed channels and ${direct.length} group conversations set up in ${Math.round((Date.now() - setupAt) / 1000)} s`,
  );
  // The conversations whose group (its latest GroupInfo, which carries the ratchet tree) holds a device of
  // Carol's: a leaf's credential identity is "<user id>:<device>..." in the clear.
  const leaf = Buffer.from(`${carolId}:`);
  const holding = async () =>
    new Set(
      (await su.collection("mls_groups").getFullList({ fields: "channel,group_info", batch: 500 }))
        .filter((g) => Buffer.from(g.group_info as string, "base64url").includes(leaf))
        .map((g) => g.channel as string),
    );
  const wanted = await holding();
  log(`${size}: Carol's devices are in ${wanted.size} of the ${sealed.length + direct.length} groups`);

  const warnings: string[] = [];
  admin.on("console", (m) => {
    if (m.type() === "warning" || m.type() === "error") warnings.push(m.text().slice(0, 200));
  });
  const cpuBefore = cpuOfDescendants();
  const started = Date.now();
  // Where the admin's page spends the time: its requests during the measurement, by route.
  const requests = new Map<string, { count: number; ms: number }>();
  const sentAt = new Map<unknown, number>();
  // by route and the names of its query's parameters: which caller asked (an epoch's messages, a page of
  // history, the mention scan's unread page, the current group's mark)
  const routeOf = (url: string) => {
    const { pathname, searchParams } = new URL(url);
    const route = pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ":id").replace(/\/[a-z0-9]{15}(?=\/|$)/g, "/:id");
    const names = [...searchParams.keys()].sort().map((k) => (k === "since" && searchParams.get(k) === "999999999" ? "since=max" : k));
    return names.length > 0 ? `${route}?${names.join("&")}` : route;
  };
  admin.on("request", (r) => sentAt.set(r, Date.now()));
  admin.on("requestfinished", async (r) => {
    const at = sentAt.get(r);
    const ended = Date.now();
    if (at === undefined || at < started) return;
    // (0: no answer, or the page closed meanwhile)
    const status = (await r.response().catch(() => null))?.status() ?? 0;
    const key = `${r.method()} ${routeOf(r.url())}${status >= 200 && status < 300 ? "" : ` (${status})`}`;
    const entry = requests.get(key) ?? { count: 0, ms: 0 };
    requests.set(key, { count: entry.count + 1, ms: entry.ms + (ended - at) });
  });
  // BENCH_TRACE=1: which of the page's functions asked for each delivery-service request (its async stack,
  // by the names of the methods in it), counted: where requests come from.
  const callers = new Map<string, number>();
  if (process.env.BENCH_TRACE === "1") {
    const cdp = await admin.context().newCDPSession(admin);
    await cdp.send("Debugger.enable");
    await cdp.send("Debugger.setAsyncCallStackDepth", { maxDepth: 32 });
    await cdp.send("Network.enable");
    type Stack = { callFrames: { functionName: string }[]; parent?: Stack };
    cdp.on("Network.requestWillBeSent", (event: { request: { url: string }; initiator: { stack?: Stack } }) => {
      if (!/\/api\/(sealed|channels\/[^/]+\/messages)/.test(event.request.url)) return;
      const names: string[] = [];
      for (let stack = event.initiator.stack; stack; stack = stack.parent)
        for (const frame of stack.callFrames)
          if (/^[A-Za-z_$][\w$]{3,}$/.test(frame.functionName) && names.at(-1) !== frame.functionName) names.push(frame.functionName);
      const key = `${routeOf(event.request.url)} <- ${names.slice(0, 8).join(" < ")}`;
      callers.set(key, (callers.get(key) ?? 0) + 1);
    });
  }
  const status = await admin.evaluate(async (path) => {
    const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    return (await fetch(path, { method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" } })).status;
  }, `/api/admin/people/${carolId}/deactivate`);
  const answeredMs = Date.now() - started;
  if (status !== 200) throw new Error(`deactivation answered ${status}`);
  let still = wanted;
  while (still.size > 0 && Date.now() - started < GIVE_UP_MS) {
    const now = await holding();
    still = new Set([...wanted].filter((id) => now.has(id)));
    if (still.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
  const left = still.size;
  const lastMs = left === 0 ? Date.now() - started : null;
  if (left > 0) {
    for (const id of still) log(`not removed: ${sealed.includes(id) ? "sealed" : "direct"} ${id}`);
    for (const warning of warnings) log(`admin's page: ${warning}`);
  }
  log(
    `${size}: answered in ${answeredMs} ms; last removal committed ${lastMs === null ? `not within ${GIVE_UP_MS / 1000} s (${left} left)` : `after ${lastMs} ms`}`,
  );
  if (left === 0 && warnings.length > 0) {
    log(`${size}: the admin's page warned ${warnings.length} times meanwhile, e.g.:`);
    for (const warning of [...new Set(warnings)].slice(0, 5)) log(`admin's page: ${warning}`);
  }
  const cpuAfter = cpuOfDescendants();
  const cpu = [...cpuBetween(cpuBefore, cpuAfter)].filter(([, seconds]) => seconds >= 0.1).sort((a, b) => b[1] - a[1]);
  log(`${size}: CPU during the measurement: ${cpu.map(([kind, seconds]) => `${kind} ${seconds.toFixed(1)} s`).join(", ")}`);
  const busiest = [...requests].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20);
  for (const [route, { count, ms }] of busiest) log(`${size}: admin's page: ${count} x ${route}, ${ms} ms in all`);
  for (const [caller, count] of [...callers].sort((a, b) => b[1] - a[1])) log(`${size}: ${count} x ${caller}`);
  await admin.context().close();
  const cpuText = cpu
    .filter(([kind]) => ["chromium", "pocketbase", "node"].includes(kind))
    .map(([kind, seconds]) => `${kind === "node" ? "web server" : kind} ${seconds.toFixed(1)} s`)
    .join(", ");
  return { size, sealed: sealed.length, direct: direct.length, holding: wanted.size, answeredMs, lastMs, left, cpuText };
}

async function main() {
  const pb = await startPocketBase();
  const web = await startWeb(pb.url);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  const rows: Awaited<ReturnType<typeof measure>>[] = [];
  try {
    for (const size of SIZES) {
      const row = await measure(browser, web.url, pb, size);
      rows.push(row);
      // the ramp goes on past the target, until a size breaks (removals left) or gets slow
      if (row.lastMs === null || row.lastMs > SLOW_MS) break;
    }
  } finally {
    await browser.close();
    await web.stop();
    await pb.stop();
  }
  const section = [
    "## Deactivating a person in many sealed channels and direct conversations",
    "",
    `Written by \`BENCH_PHASES=deactivate npm run bench\` (bench/deactivate.ts) on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); chromium against the production web server and PocketBase with \`npm start\`'s settings, everything on the same machine. The admin and Carol share the conversations (half sealed channels, half group conversations with Bob); only the admin's page is open, and commits the removals when the live events arrive (ADR 56). Target: the last removal committed within ${TARGET_MS / 1000} s. The ramp goes on until a size leaves removals undone or takes over ${SLOW_MS / 1000} s. "CPU meanwhile": CPU time of the bench's own processes between the request and the last removal (chromium: the admin's page and its browser).`,
    "",
    "| conversations | sealed channels | direct conversations | groups holding her devices | deactivation answered | last removal committed | CPU meanwhile |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.size} | ${r.sealed} | ${r.direct} | ${r.holding} | ${r.answeredMs} ms | ${r.lastMs === null ? `not within ${GIVE_UP_MS / 1000} s (${r.left} left)` : `${r.lastMs} ms`} | ${r.cpuText} |`,
    ),
    "",
  ].join("\n");
  const file = path.join(repoRoot, "docs", "benchmarks-sealed.md");
  const doc = readFileSync(file, "utf8");
  // Its heading, text and table are replaced; what the doc says after the table (the analysis) stays.
  const at = doc.indexOf("## Deactivating a person");
  const table = at < 0 ? -1 : doc.indexOf("\n| --- ", at);
  const end = table < 0 ? -1 : doc.indexOf("\n\n", table);
  const rest = end < 0 ? "" : `\n${doc.slice(end + 2).trimEnd()}\n`;
  writeFileSync(file, `${(at < 0 ? doc : doc.slice(0, at)).trimEnd()}\n\n${section}${rest}`);
  log("written to docs/benchmarks-sealed.md");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
