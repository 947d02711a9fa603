// Lint rules, including the import direction of the layout: app → common, server → common,
// never app ↔ server; common stays free of React and Node APIs. Inside app/ the layers import
// downwards only (APP_LAYERS below, explained in docs/site-architecture.md); no module cycles anywhere.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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

const layerZones = APP_LAYERS.flatMap((layer, i) =>
  APP_LAYERS.slice(0, i).flatMap((above) =>
    layer.paths.map((target) => ({
      target: `./${target}`,
      from: above.paths.map((p) => `./${p}`),
      message: `${layer.name} sits below ${above.name}: import downwards only (docs/site-architecture.md).`,
    })),
  ),
);

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
    ...importResolution,
    // No module cycles anywhere in the sources: each import goes one way.
    rules: { "import-x/no-cycle": "error" },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...importResolution,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: layerZones,
        },
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
