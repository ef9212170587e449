// Deactivating a person who is in many sealed channels and direct conversations (BENCH_PHASES=deactivate,
// part of `npm run bench`; run with vite-node; ADR 56): the production web server and PocketBase with
// `npm start`'s settings, and Debian's chromium. The admin (the first account, the owner) and Carol are
// in N conversations, half sealed channels (Carol's device joined each) and half group conversations
// with Bob (Carol's device added by Welcome); only the admin's page is open. Measured: from the admin's
// deactivation request to the last removal of Carol's devices committed to the conversations' groups
// (a sealed channel: one commit; a direct conversation: its new participant list, then the removal),
// read from the groups' latest GroupInfo (its ratchet tree names each leaf's user in the clear). BENCH_DEACTIVATE_SIZES (default "50") sets the ramp.
// Appends its section to docs/benchmarks-sealed.md.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { repoRoot, startPocketBase, superuserClient } from "../tests/integration/pocketbase";
import { startWeb } from "../tests/e2e/stack";

const SIZES = (process.env.BENCH_DEACTIVATE_SIZES ?? (process.env.BENCH_QUICK === "1" ? "10" : "50")).split(",").map(Number);
const TARGET_MS = 10_000;
const GIVE_UP_MS = 120_000;
const log = (line: string) => console.log(`[deactivate] ${line}`);
const tag = () => Math.random().toString(16).slice(2, 10);

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
  const started = Date.now();
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
  await admin.context().close();
  return { size, sealed: sealed.length, direct: direct.length, holding: wanted.size, answeredMs, lastMs, left };
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
      if (row.lastMs === null || row.lastMs > TARGET_MS) break;
    }
  } finally {
    await browser.close();
    await web.stop();
    await pb.stop();
  }
  const section = [
    "## Deactivating a person in many sealed channels and direct conversations",
    "",
    `Written by \`BENCH_PHASES=deactivate npm run bench\` (bench/deactivate.ts) on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); chromium against the production web server and PocketBase with \`npm start\`'s settings, everything on the same machine. The admin and Carol share the conversations (half sealed channels, half group conversations with Bob); only the admin's page is open, and commits the removals when the live events arrive (ADR 56). Target: the last removal committed within ${TARGET_MS / 1000} s.`,
    "",
    "| conversations | sealed channels | direct conversations | groups holding her devices | deactivation answered | last removal committed |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.size} | ${r.sealed} | ${r.direct} | ${r.holding} | ${r.answeredMs} ms | ${r.lastMs === null ? `not within ${GIVE_UP_MS / 1000} s (${r.left} left)` : `${r.lastMs} ms`} |`,
    ),
    "",
  ].join("\n");
  const file = path.join(repoRoot, "docs", "benchmarks-sealed.md");
  const doc = readFileSync(file, "utf8");
  const at = doc.indexOf("## Deactivating a person");
  writeFileSync(file, `${(at < 0 ? doc : doc.slice(0, at)).trimEnd()}\n\n${section}`);
  log("written to docs/benchmarks-sealed.md");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
