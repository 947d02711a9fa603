// Every route of the site (the page table and the blog posts), for the tests that visit them all.
import { blogSlugs } from "../../app/content/blog-posts.ts";
import { pages } from "../../app/content/pages.ts";

export const allRoutes = [
  ...Object.values(pages).map((p) => p.path),
  ...blogSlugs.map((s) => `/blog/${s}`),
];
