/* global module */
// The app's import graph, type-only imports included (ESLint's import-x/no-cycle skips those): no
// cycle of any kind (ADR 19). `npm run lint` and the test command run it; tests/unit/lint-cycles.test.ts
// proves a cycle made only of type imports fails.
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle of imports, type-only imports counted (ADR 19).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
  },
};
