#!/usr/bin/env node
// Restores PocketBase's data directory from the replica that `npm start` keeps (docs/operating.md,
// "Continuous replication"). Reads the same settings as npm start: PB_DATA, REPLICA_DIR,
// LITESTREAM_REPLICA_URL (with the storage's credentials), REPLICATION.
//
//   node scripts/replica.mjs restore               # data directory must have no data.db
//   node scripts/replica.mjs restore --force       # replaces data.db (stop the product first)
//   node scripts/replica.mjs restore --if-missing  # what npm start does before starting
import path from "node:path";
import { fileURLToPath } from "node:url";
import { replicationConfig, restore } from "./lib/replication.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [command, ...flags] = process.argv.slice(2);
const config = replicationConfig(process.env, { root, dataDir: process.env.PB_DATA || path.join(root, "pb_data") });

if (command !== "restore") {
  console.error("usage: node scripts/replica.mjs restore [--force | --if-missing]");
  process.exit(2);
}
if (!config) {
  if (flags.includes("--if-missing")) process.exit(0);
  console.error("Replication is off (REPLICATION=off): there is no replica to restore from.");
  process.exit(1);
}
try {
  const result = await restore(config, { ifMissing: flags.includes("--if-missing"), force: flags.includes("--force") });
  if (result.restored) {
    console.log(
      `Restored ${config.database} from ${config.databaseReplica} and ${result.files} other files from ${config.filesReplica} in ${result.milliseconds} ms.`,
    );
  } else if (!flags.includes("--if-missing")) {
    console.error(`Nothing restored: ${result.reason}.`);
    process.exit(1);
  }
} catch (error) {
  console.error(`Restore failed: ${error.message}`);
  process.exit(1);
}
