import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// In development the API runs beside Vite (scripts/dev.ts); the browser still sees one origin.
const api = process.env.API_ORIGIN ?? "http://127.0.0.1:3001";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
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
      "@radix-ui/react-navigation-menu",
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
