/* global module */
// The app's import graph, type-only imports included (ESLint's import-x/no-cycle skips those): no
// cycle of any kind (ADR 19), and the layers of ADR 0083, bottom up: crypto/; lib/ and server/; the
// conversation core (conversation/); the features; routes. Each imports only what is below it (the
// event hub lib/events.ts names payload types, type-only). `npm run lint` and the test command run it;
// tests/unit/lint-cycles.test.ts and tests/unit/lint-layers.test.ts prove each rule fails on fixtures.
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
      comment:
        "server/ (the proxy layer), lib/ (browser helpers) and crypto/ serve the core and the features and import none of them (ADR 11, 0083).",
      severity: "error",
      from: { path: "^app/(server|lib|crypto)/", pathNot: "^app/lib/events\\.ts$" },
      to: { path: "^app/(features|routes|conversation)/" },
    },
    {
      name: "events-name-types-only",
      comment: "lib/events.ts, the event hub, names its payloads' types with type imports and imports no feature or core code (ADR 0078).",
      severity: "error",
      from: { path: "^app/lib/events\\.ts$" },
      to: { path: "^app/(features|routes|conversation)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "crypto-stands-alone",
      comment: "crypto/ is pure: it imports nothing else of the app (ADR 11).",
      severity: "error",
      from: { path: "^app/crypto/" },
      to: { path: "^app/(?!crypto/)" },
    },
    {
      name: "core-below-features",
      comment: "The conversation core (app/conversation/) serves the features and imports none, nor a route or a screen (ADR 0083).",
      severity: "error",
      from: { path: "^app/conversation/" },
      to: { path: "^app/(?!conversation/|lib/|crypto/|server/)" },
    },
    {
      name: "feature-internals",
      comment:
        "A feature's public surface is the files at the top of its folder; a subfolder is its own (ADR 0083). No other feature imports it.",
      severity: "error",
      from: { path: "^app/features/([^/]+)/" },
      to: { path: "^app/features/[^/]+/[^/]+/", pathNot: "^app/features/$1/" },
    },
    {
      name: "feature-internals-outside",
      comment: "Nor does anything outside the features (routes, the core, the layers below) import a feature's subfolder (ADR 0083).",
      severity: "error",
      from: { path: "^app/(?!features/)" },
      to: { path: "^app/features/[^/]+/[^/]+/" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
  },
};
