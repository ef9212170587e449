import { defineConfig } from "vitest/config";

// Two projects, both in the Node environment. Playwright specs (tests/e2e) are not picked up here.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["tests/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "integration",
          environment: "node",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file starts its own PocketBase on a free port and a temporary data dir.
          fileParallelism: false,
        },
      },
    ],
  },
});
