import type { Config } from "@react-router/dev/config";
import { blogSlugs } from "./app/content/blog-posts.ts";
import { prerenderPaths } from "./app/content/pages.ts";

// Every page is prerendered to static HTML; the server serves the files (no runtime rendering).
export default {
  // BUILD_DIR lets several builds coexist (e.g. previews); the server reads SITE_DIR.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ssr: false,
  prerender: prerenderPaths(blogSlugs),
} satisfies Config;
