// Lint rules, including the import direction of the layout: app → common, server → common,
// never app ↔ server; common stays free of React and Node APIs.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const forbid = (...groups) => ({
  "no-restricted-imports": ["error", { patterns: groups }],
});

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-*/",
      "data/",
      "node_modules/",
      ".react-router/",
      "scratch/",
      "coverage/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid({
        group: ["**/server/**", "node:*"],
        message: "app/ may import common/, never server/ or Node APIs.",
      }),
    },
  },
  {
    files: ["server/**/*.ts"],
    rules: forbid({
      group: ["**/app/**", "react", "react-dom", "react-router"],
      message: "server/ may import common/, never app/.",
    }),
  },
  {
    files: ["common/**/*.ts"],
    rules: forbid({
      group: ["**/app/**", "**/server/**", "react", "react-*", "node:*"],
      message: "common/ holds code for both sides: no React, no Node APIs, no app/ or server/.",
    }),
  },
  {
    files: ["scripts/**/*.{mjs,ts}", "bench/**/*.ts", "tests/**/*.ts", ".ci/**"],
    rules: { "no-console": "off" },
  },
);
