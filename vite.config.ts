import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build } from "esbuild";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";

// In development the API runs beside Vite (scripts/dev.ts); the browser still sees one origin.
const api = process.env.API_ORIGIN ?? "http://127.0.0.1:3001";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), inlineScript()],
  server: {
    proxy: Object.fromEntries(
      ["/auth/v1", "/rest/v1", "/functions/v1", "/_dev"].map((p) => [p, api]),
    ),
  },
  build: { assetsInlineLimit: 0 },
  // Development: the islands' dependencies load lazily; optimise them up front so Vite never
  // re-bundles mid-session (which would load a second copy of React).
  resolve: { dedupe: ["react", "react-dom"] },
  optimizeDeps: {
    include: [
      "react",
      "react-dom",
      "react-dom/client",
      "@radix-ui/react-dialog",
      "@radix-ui/react-slot",
      "@radix-ui/react-toast",
      "@hookform/resolvers/zod",
      "@supabase/supabase-js",
      "altcha",
      "class-variance-authority",
      "clsx",
      "embla-carousel-react",
      "react-hook-form",
      "tailwind-merge",
      "vaul",
      "zod",
    ],
  },
});

/**
 * `import source from "./x.ts?inline-script"`: the module and its imports bundled on their own into
 * one minified classic script, as text for the page to inline (a first script without a request).
 */
function inlineScript(): Plugin {
  const suffix = "?inline-script";
  return {
    name: "revwise:inline-script",
    async load(id) {
      if (!id.endsWith(suffix)) return null;
      const result = await build({
        entryPoints: [id.slice(0, -suffix.length)],
        bundle: true,
        write: false,
        format: "iife",
        minify: true,
        target: "es2020",
        metafile: true,
      });
      for (const input of Object.keys(result.metafile.inputs))
        this.addWatchFile(path.resolve(input));
      const source = result.outputFiles[0]!.text.trim();
      if (/<\/script/i.test(source)) throw new Error(`${id}: "</script" cannot be inlined`);
      return `export default ${JSON.stringify(source)};`;
    },
  };
}
