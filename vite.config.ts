import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// In development the API runs beside Vite (scripts/dev.mjs); the browser still sees one origin.
const api = process.env.API_ORIGIN ?? "http://127.0.0.1:3001";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  server: {
    proxy: Object.fromEntries(
      ["/auth/v1", "/rest/v1", "/functions/v1", "/_dev"].map((p) => [p, api]),
    ),
  },
  build: { assetsInlineLimit: 0 },
});
