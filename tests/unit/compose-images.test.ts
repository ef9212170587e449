/**
 * The images the compose file builds: every service from a Dockerfile here, on the pinned versions,
 * with the files and commands production needs (compose-files.ts says what the compose tests check
 * and why).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dockerfile, dockerfileOf, environmentOf, envOfStage, execForm, read, root, runs, services } from "./compose-files";

describe("images", () => {
  it("builds every service from a Dockerfile in this repository", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(existsSync(path.join(root, dockerfileOf(service))), `${name}: ${dockerfileOf(service)}`).toBe(true);
    }
    expect(dockerfileOf(services.pocketbase)).toBe(path.normalize("pocketbase/Dockerfile"));
    expect(dockerfileOf(services.web)).toBe("Dockerfile");
  });

  it("builds PocketBase with Go 1.26 (GOTOOLCHAIN=local, CGO_ENABLED=0) from the pinned module v0.39.11", () => {
    const stages = dockerfile(dockerfileOf(services.pocketbase));
    const [builder, runtime] = [stages[0], stages.at(-1)!];
    expect(builder.from).toMatch(/^golang:1\.26(-|$)/);
    expect(envOfStage(builder)).toMatchObject({ GOTOOLCHAIN: "local", CGO_ENABLED: "0" });
    expect(runs(builder)).toMatch(/\bgo build\b/);
    expect(runtime.from).not.toMatch(/^golang:/);
    expect(stages.length).toBeGreaterThanOrEqual(2);

    const goMod = read("pocketbase/go.mod");
    expect(/^go (\d+\.\d+)/m.exec(goMod)?.[1]).toBe("1.26");
    expect(goMod).toMatch(/^\s*github\.com\/pocketbase\/pocketbase v0\.39\.11$/m);
  });

  it("copies the migrations and hooks into PocketBase's image and serves them as production needs", () => {
    const runtime = dockerfile(dockerfileOf(services.pocketbase)).at(-1)!;
    const copies = runtime.instructions.filter((i) => i.op === "COPY").map((i) => i.args);
    expect(copies).toContain("pb_migrations /pb_migrations");
    expect(copies).toContain("pb_hooks /pb_hooks");
    expect(services.pocketbase.command).toBeUndefined();
    expect(services.pocketbase.entrypoint).toBeUndefined();
    expect(execForm(runtime, "CMD")).toEqual([
      "serve",
      "--http",
      "0.0.0.0:8090",
      "--dir",
      "/pb_data",
      "--migrationsDir",
      "/pb_migrations",
      "--hooksDir",
      "/pb_hooks",
      "--hooksWatch=false",
      "--automigrate=false",
    ]);
    expect(execForm(runtime, "ENTRYPOINT")[0]).toMatch(/pocketbase$/);
  });

  it("builds the web app on Node 20 and runs node server.mjs in production mode on 0.0.0.0:3000", () => {
    const stages = dockerfile(dockerfileOf(services.web));
    for (const stage of stages) expect(stage.from).toMatch(/^node:20(-|$)/);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runs(stages[0])).toMatch(/\bnpm install\b/);
    expect(runs(stages[0])).toMatch(/\bnpx remix vite:build\b/);
    const runtime = stages.at(-1)!;
    expect(envOfStage(runtime)).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", PORT: "3000" });
    expect(execForm(runtime, "CMD")).toEqual(["node", "server.mjs"]);
    expect(JSON.parse(read("package.json")).engines.node).toBe(">=20");
  });

  it("installs APy and the same Apertium pairs as scripts/install-apertium.sh, on Debian 12", () => {
    const [stage] = dockerfile(dockerfileOf(services.translate));
    expect(stage.from).toMatch(/^debian:(12|bookworm)(-|$)/);
    const script = /packages=\(([\s\S]*?)\)/.exec(read("scripts/install-apertium.sh"))?.[1] ?? "";
    const wanted = script.split(/\s+/).filter(Boolean);
    expect(wanted).toContain("apertium-apy");
    const installed = runs(stage).match(/\bapertium-[a-z-]+/g) ?? [];
    expect(new Set(installed)).toEqual(new Set(wanted));
    // APERTIUM_MAX_IDLE_SECS from the compose file reaches APy's command line.
    expect(Object.keys(environmentOf(services.translate))).toContain("APERTIUM_MAX_IDLE_SECS");
    expect(execForm(stage, "CMD").join(" ")).toContain("$APERTIUM_MAX_IDLE_SECS");
    expect(execForm(stage, "CMD").join(" ")).toContain("--port 2737");
  });

  it("keeps data, secrets and local builds out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const entry of [".git", ".env", "node_modules", "pb_data", "build", "bin"]) expect(ignored).toContain(entry);
  });
});
