import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["build/**", ".cache/**", ".bench/**", ".react-router/**", "node_modules/**", ".data/**", ".data-bench/**", "tests/.e2e-data/**", "test-results/**", "playwright-report/**", "db/migrations/**", "public/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  // A function stays under 150 lines in product code: longer ones hide several steps that read better as
  // named helpers. Blank lines and comments count, so the figure matches a plain count of the function's
  // lines from its first to its last.
  {
    files: [
      "server.ts",
      "{server,app,api,ocpi,ocpp,infra,db,domain}/**/*.{ts,tsx}",
    ],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: false, skipComments: false }],
    },
  },
  // A route module stays under 300 lines: beyond its loader, action and screen, what it needs lives in a
  // module beside it (a `<route>.server.ts`, a component).
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "max-lines": ["error", { max: 300, skipBlankLines: false, skipComments: false }],
    },
  },
  // Seed data and the terms text are long by nature: a list of rows and a legal document.
  {
    files: ["db/seed/**", "app/routes/auth/terms-conditions.tsx"],
    rules: { "max-lines-per-function": "off" },
  },
);
