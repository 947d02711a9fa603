// Lint rules, including the import direction of the layout: app → common, server → common,
// never app ↔ server; common stays free of React and Node APIs. Inside app/ and inside server/ the
// layers import downwards only (APP_LAYERS and SERVER_LAYERS below, explained in
// docs/site-architecture.md and docs/server-architecture.md); no module cycles anywhere, type
// imports included (scripts/eslint-no-cycle.mjs).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import cycles from "./scripts/eslint-no-cycle.mjs";

const forbid = (...groups) => ({
  "no-restricted-imports": ["error", { patterns: groups }],
});

// The layers of app/, top first: a module may import from its own layer and the layers below it,
// never from one above (docs/site-architecture.md says what each layer is for).
const widgetFolders = readdirSync(new URL("app/components", import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory() && entry.name !== "ui")
  .map((entry) => `app/components/${entry.name}`);

export const APP_LAYERS = [
  {
    name: "routes",
    paths: ["app/routes", "app/routes.ts", "app/root.tsx", "app/entry.client.tsx"],
  },
  { name: "sections", paths: ["app/sections"] },
  { name: "islands", paths: ["app/islands"] },
  { name: "components/ (widgets)", paths: widgetFolders },
  { name: "forms", paths: ["app/forms"] },
  { name: "components/ui", paths: ["app/components/ui"] },
  { name: "lib", paths: ["app/lib"] },
  { name: "content", paths: ["app/content", "app/assets"] },
];

// The layers of server/, top first, as APP_LAYERS: a module imports from its own layer's folder
// and the layers below, never from one above; in a layer of several independent folders, none
// imports another (docs/server-architecture.md says what each layer holds and why it sits there).
// Tests beside the code build the whole app, as scripts/ and tests/ do: they may import anything.
export const SERVER_LAYERS = [
  {
    name: "composition",
    paths: [
      "server/app.ts",
      "server/server.ts",
      "server/services.ts",
      "server/framework-errors.ts",
    ],
  },
  { name: "apis", paths: ["server/rest", "server/functions"], independent: true },
  {
    name: "protocols",
    paths: ["server/auth", "server/newsletter", "server/site"],
    independent: true,
  },
  {
    name: "domain",
    paths: ["server/leads", "server/analytics", "server/team", "server/audit"],
    independent: true,
  },
  { name: "webhooks", paths: ["server/webhooks"] },
  { name: "mail", paths: ["server/mail"] },
  { name: "queue", paths: ["server/queue"] },
  { name: "config", paths: ["server/config.ts", "server/config"] },
  { name: "infrastructure", paths: ["server/security", "server/platform"], independent: true },
  { name: "http", paths: ["server/http"] },
  { name: "db", paths: ["server/db"] },
  { name: "metrics", paths: ["server/metrics"] },
];

/** Zones of no-restricted-paths: each layer's paths may not import from the layers above it. */
function downwardOnly(layers, doc) {
  return layers.flatMap((layer, i) =>
    layers.slice(0, i).flatMap((above) =>
      layer.paths.map((target) => ({
        target: `./${target}`,
        from: above.paths.map((p) => `./${p}`),
        message: `${layer.name} sits below ${above.name}: import downwards only (${doc}).`,
      })),
    ),
  );
}

/** Zones of the folders of a layer that keeps them independent: none imports another. */
const independentFolders = (layers, doc) =>
  layers
    .filter((layer) => layer.independent)
    .flatMap((layer) =>
      layer.paths.map((target) => ({
        target: `./${target}`,
        from: layer.paths.filter((p) => p !== target).map((p) => `./${p}`),
        message: `${target} and the other folders of ${layer.name} are independent: neither imports the other (${doc}).`,
      })),
    );

const serverZones = [
  ...downwardOnly(SERVER_LAYERS, "docs/server-architecture.md"),
  ...independentFolders(SERVER_LAYERS, "docs/server-architecture.md"),
];

/** How import-x resolves the sources' imports (TypeScript files named with their extension). */
const importResolution = {
  plugins: { "import-x": importX },
  settings: {
    "import-x/extensions": [".ts", ".tsx", ".js"],
    "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js"] })],
    // Dependencies are resolved, not parsed: some ship minified bundles too deep to parse.
    "import-x/ignore": ["node_modules"],
  },
};

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
      // A form without method="post" sends its fields in the URL if it submits without its script.
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "JSXOpeningElement[name.name='form']:not(:has(JSXAttribute[name.name='method']))",
          message: 'Use ScriptForm (app/forms/script-form.tsx), or give the form method="post".',
        },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "common/**/*.ts"],
    plugins: { local: cycles },
    // No module cycles anywhere in the sources, type imports included: each import goes one way.
    rules: { "local/no-cycle": "error" },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...importResolution,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: downwardOnly(APP_LAYERS, "docs/site-architecture.md"),
        },
      ],
    },
  },
  {
    files: ["server/**/*.ts"],
    ignores: ["server/**/*.test.ts"],
    ...importResolution,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { basePath: import.meta.dirname, zones: serverZones },
      ],
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
