import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./pocketbase";

// Our PocketBase's own Go tests (pocketbase/*_test.go: the relay, the history page's queries, the
// parsers, the SSRF guard, ...), run with the test suite so a failing one fails it.
describe("our PocketBase's Go tests", () => {
  it("pass (go test)", { timeout: 600_000 }, async () => {
    const { stdout } = await promisify(execFile)("go", ["test", "-count=1", "."], {
      cwd: path.join(repoRoot, "pocketbase"),
      env: { ...process.env, GOTOOLCHAIN: "local", CGO_ENABLED: "0" },
      maxBuffer: 20 * 1024 * 1024,
    });
    expect(stdout).toMatch(/^ok\s+chatcrypt\/pocketbase/m);
  });
});
