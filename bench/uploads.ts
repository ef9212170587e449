// Uploads in constant memory (BENCH_PHASES=uploads, part of `npm run bench`; run with vite-node): the
// production web server and PocketBase on this machine, six concurrent 50 MB uploads of one account
// sent as the page sends them (those beyond the account's few at once are answered 429 and sent again
// when one has finished, as the page's queue does), the web process's RSS sampled every 50 ms (ADR 66).
// Writes docs/benchmarks-uploads.md.
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UPLOADS_PER_ACCOUNT, UPLOADS_PER_PROCESS } from "../app/features/files/upload-slots.server";
import { createChannel, repoRoot, signUpUser, startPocketBase } from "../tests/integration/pocketbase";
import { describeSixUploads, sixConcurrentUploads } from "../tests/integration/upload-client";
import { signedInClient, startWebServer } from "../tests/integration/web-session";

const log = (line: string) => console.log(`[uploads] ${line}`);

const pb = await startPocketBase();
const web = await startWebServer(pb.url);
try {
  const user = await signUpUser(pb.url);
  const channel = await createChannel(user);
  const figures = await sixConcurrentUploads({ web, user, channel, browser: await signedInClient(web.url, user) });
  log(describeSixUploads(figures));
  const row = (name: string, value: string) => `| ${name} | ${value} |`;
  const report = [
    "# Uploads: web process memory",
    "",
    `Written by \`BENCH_PHASES=uploads npm run bench\` (bench/uploads.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}); the production web server (one process) and PocketBase on the same machine. Six 50 MB uploads of one account are sent at once, as the page sends them; the server runs ${UPLOADS_PER_ACCOUNT} of an account at once (${UPLOADS_PER_PROCESS} per process) and answers the rest 429, which are sent again once one has finished, as the page's queue does (ADR 66). "Idle" is the web process after one 50 MB upload; the peak is sampled every 50 ms. Target: peak under idle + 64 MB (the issue saw +800 MB per process before uploads were streamed).`,
    "",
    "| Figure | Value |",
    "| --- | --- |",
    row("RSS at start", `${figures.startMb.toFixed(0)} MB`),
    row("RSS idle (after one 50 MB upload)", `${figures.idleMb.toFixed(0)} MB`),
    row(
      "RSS peak during six concurrent 50 MB uploads",
      `${figures.peakMb.toFixed(0)} MB (+${(figures.peakMb - figures.idleMb).toFixed(0)} MB)`,
    ),
    row("Answers 429 sent again", String(figures.refused)),
    row("Stored", `${figures.stored} of 6 in ${figures.seconds.toFixed(1)} s`),
    "",
  ].join("\n");
  writeFileSync(path.join(repoRoot, "docs", "benchmarks-uploads.md"), report);
} finally {
  await web.stop();
  await pb.stop();
}
