/* global module */
// The app's import graph, type-only imports included (ESLint's import-x/no-cycle skips those): no
// cycle of any kind (ADR 19), and the layers below the features import none (ADR 11). `npm run lint` and the test command run it; tests/unit/lint-cycles.test.ts
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
    {
      name: "layers-below-features",
      comment: "server/ (the proxy layer), lib/ (browser helpers) and crypto/ serve the features and import none (ADR 11).",
      severity: "error",
      from: { path: "^app/(server|lib|crypto)/", pathNot: "^app/lib/events\\.ts$" },
      to: { path: "^app/(features|routes)/" },
    },
    {
      name: "events-name-types-only",
      comment: "lib/events.ts, the event hub, names its payloads' types with type imports and imports no feature code (ADR 0078).",
      severity: "error",
      from: { path: "^app/lib/events\\.ts$" },
      to: { path: "^app/(features|routes)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "crypto-stands-alone",
      comment: "crypto/ is pure: it imports nothing else of the app (ADR 11).",
      severity: "error",
      from: { path: "^app/crypto/" },
      to: { path: "^app/(?!crypto/)" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
  },
};
