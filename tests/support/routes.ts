// Every route of the site (the page table and the blog folder), for the tests that visit them all.
import fs from "node:fs";
import { pages } from "../../app/content/pages.ts";

const blogSlugs = fs
  .readdirSync("app/content/blog")
  .filter((f) => f.endsWith(".md"))
  .map((f) => f.slice(0, -3));

export const allRoutes = [
  ...Object.values(pages).map((p) => p.path),
  ...blogSlugs.map((s) => `/blog/${s}`),
];
