import { defineConfig } from "vitest/config";
import SlowFirst from "./tests/slow-first";

// Two projects, both in the Node environment. Playwright specs (tests/e2e) are not picked up here.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    // Three files at a time on the two cores: an integration file spends much of its time waiting
    // (on its PocketBase, a timer of the server's, a web server it stopped), so two files left a fifth
    // of the machine idle. On the 2-core machine the whole run took 326 s with two (79% of both cores
    // busy), 230-242 s with three (88%), 224 s with four. VITEST_MAX_WORKERS changes it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    minWorkers: 1,
    // the slowest files first (tests/slow-first.ts), so that none of them runs alone at the end
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["tests/unit/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
