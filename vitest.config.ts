import { defineConfig } from "vitest/config";

// Two projects, both in the Node environment. Playwright specs (tests/e2e) are not picked up here.
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    // Two files at a time on the two cores (vitest would keep one core free): unit files start nothing,
    // and an integration file mostly waits on its own PocketBase (a fresh process and data directory).
    // VITEST_MAX_WORKERS changes it (a machine with more cores, or a measurement).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    minWorkers: 1,
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
