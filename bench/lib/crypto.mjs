// The real client crypto (app/crypto/index.ts), message body codec (app/conversation/messages/body.ts),
// keyring entry (app/conversation/keyring/entry.ts) and message archive entry (app/conversation/archive/entry.ts),
// bundled once with esbuild into a temporary ES module so Node runs exactly the code the browser runs.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Where loadClientCrypto writes the bundle (a worker thread imports the same file). */
export const clientCryptoFile = (tmpDir) => path.join(tmpDir, "chatcrypt-crypto.mjs");

export async function loadClientCrypto(root, tmpDir) {
  const out = clientCryptoFile(tmpDir);
  const entry = path.join(tmpDir, "chatcrypt-client-entry.ts");
  writeFileSync(
    entry,
    `export * from ${JSON.stringify(path.join(root, "app", "crypto", "index.ts"))};\n` +
      `export { encodeBody } from ${JSON.stringify(path.join(root, "app", "conversation", "messages", "body.ts"))};\n` +
      `export { keyringAad, keyringSecret } from ${JSON.stringify(path.join(root, "app", "conversation", "keyring", "entry.ts"))};\n` +
      `export { sealEntry, openEntry } from ${JSON.stringify(path.join(root, "app", "conversation", "archive", "entry.ts"))};\n`,
  );
  execFileSync(path.join(root, "node_modules", ".bin", "esbuild"), [
    entry,
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    "--target=node20",
    `--outfile=${out}`,
    "--log-level=warning",
  ]);
  return import(pathToFileURL(out).href);
}
