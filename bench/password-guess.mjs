// What one offline guess at an account password costs a server that holds the wrapped keys
// (SECURITY.md, "A malicious or compromised server"): PBKDF2-SHA256 with 600,000 iterations over the
// guess, HKDF to the wrap key, and an AES-GCM open of the wrapped ECDH key (which fails for a wrong
// guess). The recovery-key and passkey copies offer nothing cheaper: a 256-bit key and a PRF output
// that never leaves the authenticator. Run: node bench/password-guess.mjs [runs]
import { createDecipheriv, hkdfSync, pbkdf2Sync, randomBytes } from "node:crypto";
import os from "node:os";

const ITERATIONS = 600_000;
const runs = Number(process.argv[2] ?? 10);
const email = "alice@example.test";
const userId = "alice1234567890";
const iv = randomBytes(12);
const sealed = randomBytes(200);

const times = [];
for (let i = 0; i < runs; i++) {
  const started = process.hrtime.bigint();
  const master = pbkdf2Sync(`guess-${i}`, email, ITERATIONS, 32, "sha256");
  const wrapKey = Buffer.from(hkdfSync("sha256", master, userId, "chatcrypt key wrap", 32));
  const decipher = createDecipheriv("aes-256-gcm", wrapKey, iv);
  decipher.setAAD(Buffer.from(`chatcrypt:ecdh:${userId}`));
  decipher.setAuthTag(sealed.subarray(-16));
  decipher.update(sealed.subarray(0, -16));
  try {
    decipher.final();
  } catch {
    // a wrong guess: the tag does not match
  }
  times.push(Number(process.hrtime.bigint() - started) / 1e6);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `one guess (PBKDF2-SHA256 x ${ITERATIONS.toLocaleString("en")}, HKDF, AES-GCM): median ${median.toFixed(0)} ms, ` +
    `fastest ${times[0].toFixed(0)} ms over ${runs} runs, about ${(1000 / times[0]).toFixed(1)} guesses a second per core ` +
    `(Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"}, load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
);
