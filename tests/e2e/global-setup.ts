import { execFileSync } from "node:child_process";
import { startPocketBase } from "../integration/pocketbase";
import { startWeb } from "./stack";

/** One PocketBase (temporary data directory) and one production web server for the whole e2e run. */
export default async function globalSetup() {
  execFileSync("bash", ["scripts/ensure-deps.sh"], { stdio: "inherit" });
  const pb = await startPocketBase();
  const web = await startWeb(pb.url);

  process.env.E2E_BASE_URL = web.url;
  process.env.E2E_PB_URL = pb.url;
  process.env.E2E_PB_DATA = pb.dataDir;
  process.env.E2E_LOG_DIR = web.logDir;
  process.env.E2E_SUPERUSER = JSON.stringify(pb.superuser);

  return async () => {
    await web.stop();
    await pb.stop();
  };
}
