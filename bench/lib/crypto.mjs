// The real client crypto (app/crypto/index.ts), bundled once with esbuild into a temporary ES module so
// Node runs exactly the code the browser runs.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

export async function loadClientCrypto(root, tmpDir) {
  const out = path.join(tmpDir, "chatcrypt-crypto.mjs");
  execFileSync(path.join(root, "node_modules", ".bin", "esbuild"), [
    path.join(root, "app", "crypto", "index.ts"),
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    "--target=node20",
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return import(pathToFileURL(out).href);
}
