// When replication counts as stopped (scripts/lib/replication-health.mjs): a change of the database
// that waits more than 10 s for the replica; not the first write after a quiet spell, which meets a
// replica last written long ago and is taken within a second.
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LAG_LIMIT_MS, newReplicationWatch, replicationStatus } from "../../scripts/lib/replication-health.mjs";

let dir: string;
let config: { database: string; databaseReplica: string };
const t0 = Date.parse("2026-01-01T12:00:00Z");

/** Sets when the database last changed and when the replica was last written. */
async function at(changed: number, replicated: number) {
  await utimes(config.database, changed / 1000, changed / 1000);
  await utimes(path.join(dir, "replica", "0001.ltx"), replicated / 1000, replicated / 1000);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "replication-health-"));
  await mkdir(path.join(dir, "replica"));
  await writeFile(path.join(dir, "data.db"), "");
  await writeFile(path.join(dir, "replica", "0001.ltx"), "");
  config = { database: path.join(dir, "data.db"), databaseReplica: `file://${path.join(dir, "replica")}` };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("replication's health", () => {
  it("the first write after a quiet minute is no stopped replication: the replica takes it", async () => {
    const watch = newReplicationWatch();
    await at(t0, t0 - 60_000); // quiet for a minute, then a write the replica has not taken yet
    expect((await replicationStatus(config, { running: true, now: t0 + 500, watch })).state).toBe("ok");
    await at(t0, t0 + 700); // taken
    expect((await replicationStatus(config, { running: true, now: t0 + 2_500, watch })).state).toBe("ok");
  });

  it("a change the replica does not take for more than 10 s is: replication has stopped", async () => {
    const watch = newReplicationWatch();
    await at(t0, t0 - 60_000);
    expect((await replicationStatus(config, { running: true, now: t0 + 500, watch })).state).toBe("ok");
    await at(t0 + 5_000, t0 - 60_000); // more writes, none replicated
    expect((await replicationStatus(config, { running: true, now: t0 + LAG_LIMIT_MS - 500, watch })).state).toBe("ok");
    const stopped = await replicationStatus(config, { running: true, now: t0 + LAG_LIMIT_MS + 1_000, watch });
    expect(stopped.state).toBe("behind");
    expect(stopped.message).toMatch(/^Replication has stopped: the database has changed since the replica was last written, 71 s ago\./);
    // the replica takes everything: up to date again
    await at(t0 + 5_000, t0 + LAG_LIMIT_MS + 1_500);
    expect((await replicationStatus(config, { running: true, now: t0 + LAG_LIMIT_MS + 2_000, watch })).state).toBe("ok");
  });

  it("several writes between two checks count from the first: said within the limit and one check of it", async () => {
    const watch = newReplicationWatch();
    await at(t0 - 1_000, t0 - 500); // everything taken
    expect((await replicationStatus(config, { running: true, now: t0, watch })).state).toBe("ok");
    // writes every half second from just after that check; the replica takes none of them: the next
    // check sees only the latest (t0 + 1,900), but the replica has been missing one since t0 at least
    await at(t0 + 1_900, t0 - 500);
    expect((await replicationStatus(config, { running: true, now: t0 + 2_000, watch })).state).toBe("ok");
    await at(t0 + 9_900, t0 - 500);
    expect((await replicationStatus(config, { running: true, now: t0 + LAG_LIMIT_MS - 100, watch })).state).toBe("ok");
    expect((await replicationStatus(config, { running: true, now: t0 + LAG_LIMIT_MS + 500, watch })).state).toBe("behind");
  });

  it("writes all the time, each taken within a second, are no stopped replication", async () => {
    const watch = newReplicationWatch();
    for (let s = 0; s < 30; s += 2) {
      await at(t0 + s * 1000 + 900, t0 + s * 1000 + 400); // a write just after the replica's last
      expect((await replicationStatus(config, { running: true, now: t0 + s * 1000 + 1_000, watch })).state, `${s} s`).toBe("ok");
    }
  });

  it("a Litestream that does not run is said at once", async () => {
    expect((await replicationStatus(config, { running: false, now: t0 })).state).toBe("stopped");
  });
});
