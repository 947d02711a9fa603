// The JavaScript a page runs before any interaction, gzip-sized: its inline scripts (as served)
// and every script file the browser fetches for it, idle-time ones included (issue budgets:
// the home page ≤ 10 KB). Used by `npm run bench:web` and the site's browser test.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Page } from "playwright-core";
import { inlineScripts } from "../../server/site/site-files.ts";

const gzipSize = (data: string | Buffer) => zlib.gzipSync(data, { level: 9 }).length;

/** Opens `url` in `page` (no interaction) and sizes what it ran once the page went idle. */
export async function firstLoadJs(
  page: Page,
  url: string,
  siteDir: string,
): Promise<{ files: number; gzip: number }> {
  const scripts = new Set<string>();
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.add(new URL(r.url()).pathname);
  });
  await page.goto(url, { waitUntil: "networkidle" });
  // Whatever the page starts when the browser is idle (idle-time islands) has started by then.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })),
  );
  await page.waitForLoadState("networkidle");
  const html = await (await fetch(url)).text();
  let gzip = inlineScripts(html).reduce((sum, script) => sum + gzipSize(script), 0);
  for (const file of scripts) gzip += gzipSize(fs.readFileSync(path.join(siteDir, file)));
  return { files: scripts.size, gzip };
}
