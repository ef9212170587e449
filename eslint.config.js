// ESLint for the web app, the server, the tests and the bench: TypeScript, React hooks and
// accessibility rules; formatting is Prettier's (eslint-config-prettier turns off what it decides).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      "node_modules/",
      "reports/",
      "test-results/",
      "playwright-report/",
      "bin/",
      "pb_data/",
      "types/",
      "pb_hooks/",
      "pb_migrations/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["app/**/*.tsx", "app/**/*.ts"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // No import circle in the app (ADR 19): a feature that needs another's behaviour is handed it by the
    // one that imports both. This rule skips type-only imports; .dependency-cruiser.cjs counts them.
    files: ["app/**/*.tsx", "app/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // The conversation core draws nothing (ADR 0083): React belongs to the features.
    files: ["app/conversation/**/*.ts", "app/conversation/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["react", "react/*", "react-dom", "react-dom/*", "@remix-run/react"],
              message: "The conversation core is React-free (ADR 0083).",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
