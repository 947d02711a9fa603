// npm run bench:web: Lighthouse 12 (mobile preset, the system Chromium) on every route of the
// built site served by the real server, plus the home page's first-load JavaScript as a browser
// runs it before any interaction (its inline script and every script file it fetches, gzip).
// Targets: performance 100, LCP ≤ 1.2 s and CLS 0 on every route; accessibility, best practices
// and SEO 100 (a noindex page fails Lighthouse's is-crawlable on purpose); home first-load JS
// ≤ 10 KB gzip.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/support/browser.ts";
import { BLOG_NOT_FOUND_ROUTE, NOT_FOUND_ROUTE } from "../common/site-build.ts";
import { firstLoadJs } from "../tests/support/first-load.ts";
import { startServer } from "../tests/support/server-process.ts";
import { fmt, table } from "./lib.ts";

const SITE = path.resolve("build/client");
const lighthouseVersion = (
  JSON.parse(fs.readFileSync("node_modules/lighthouse/package.json", "utf8")) as { version: string }
).version;
if (!fs.existsSync(path.join(SITE, "index.html"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}
if (!CHROMIUM) {
  console.error("No Chromium: apt-get install -y chromium");
  process.exit(1);
}

/** Every page of the build: each prerendered index.html but the two not-found pages. */
function builtRoutes(): string[] {
  return fs
    .readdirSync(SITE, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "index.html")
    .map((file) => `/${path.dirname(file)}`.replace(/^\/\.$/, "/"))
    .filter((route) => route !== NOT_FOUND_ROUTE && route !== BLOG_NOT_FOUND_ROUTE)
    .sort();
}

const only = process.argv.slice(2);
const routes = only.length ? only : builtRoutes();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-web-"));
const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: SITE, LOG_LEVEL: "warn" }).catch(
  async () =>
    // LOG_LEVEL=warn hides the ready line the helper waits for; fall back to info.
    startServer({ DATA_DIR: dataDir, SITE_DIR: SITE, LOG_LEVEL: "info" }),
);

/** The home page's first-load JavaScript, in a phone-sized browser (tests/support/first-load.ts). */
async function homeFirstLoad(route: string): Promise<{ files: number; gzip: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    return await firstLoadJs(await context.newPage(), server.url + route, SITE);
  } finally {
    await browser.close();
  }
}

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: [...CHROMIUM_ARGS, "--headless=new"],
});
/**
 * One Lighthouse run. A run that could not measure the page at all (NO_NAVSTART and the like: the
 * shared machine stalled) is repeated, twice at most, instead of being scored as zero.
 */
async function measure(url: string) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    const lhr = result!.lhr;
    if (!lhr.runtimeError || attempt === 3) return lhr;
    console.error(`${url}: ${lhr.runtimeError.code}, measuring again`);
  }
}

const rows: Record<string, string | number>[] = [];
const failures: string[] = [];
try {
  for (const route of routes) {
    // The home page's target is exactly 100: it is measured five times and the median kept.
    const runs = route === "/" ? 5 : 1;
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(server.url + route));
    results.sort(
      (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
    );
    const lhr = results[Math.floor(results.length / 2)]!;
    if (lhr.runtimeError)
      failures.push(`${route}: Lighthouse could not measure it (${lhr.runtimeError.code})`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const failed = Object.values(lhr.categories)
      .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]!))
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
      .map((a) => a.id);
    // A noindex page (the account pages, the no-JavaScript notice) is not crawlable on purpose.
    const noindex = failed.length === 1 && failed[0] === "is-crawlable";
    const scores = {
      perf: score("performance"),
      a11y: score("accessibility"),
      "best pr.": score("best-practices"),
      seo: score("seo"),
    };
    rows.push({
      route,
      ...scores,
      seo: noindex ? `${scores.seo} (noindex)` : scores.seo,
      "LCP ms": fmt(audit("largest-contentful-paint")),
      "TBT ms": fmt(audit("total-blocking-time")),
      CLS: fmt(audit("cumulative-layout-shift"), 3),
    });
    if (
      scores.perf < 100 ||
      scores.a11y < 100 ||
      scores["best pr."] < 100 ||
      (scores.seo < 100 && !noindex) ||
      audit("largest-contentful-paint") > 1200 ||
      audit("cumulative-layout-shift") > 0
    )
      failures.push(`${route}: ${failed.join(", ") || "performance or LCP below target"}`);
  }
} finally {
  await chrome.kill();
}

const home = await homeFirstLoad("/");
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `Lighthouse ${lighthouseVersion} (mobile preset) · ${os.cpus().length} cores · ${routes.length} routes\n`,
);
table(rows);
const min = (key: string) => Math.min(...rows.map((r) => parseFloat(String(r[key]))));
const max = (key: string) => Math.max(...rows.map((r) => Number(String(r[key]).replace(/,/g, ""))));
console.log();
table([
  {
    figure: "performance, home",
    value: rows.find((r) => r.route === "/")?.perf ?? "-",
    target: "100",
  },
  { figure: "performance, lowest route", value: min("perf"), target: "100" },
  { figure: "LCP, slowest route", value: `${fmt(max("LCP ms"))} ms`, target: "≤ 1,200 ms" },
  {
    figure: "accessibility / best practices / SEO, lowest",
    value: `${min("a11y")} / ${min("best pr.")} / ${min("seo")}`,
    target: "100 / 100 / 100 (but noindex pages)",
  },
  { figure: "CLS, highest route", value: fmt(max("CLS"), 3), target: "0" },
  {
    figure: "home first-load JS (gzip)",
    value: `${fmt(home.gzip / 1024, 1)} KB: inline script and ${home.files} files`,
    target: "≤ 10 KB",
  },
]);
if (failures.length) {
  console.log("\nBelow target:");
  for (const f of failures) console.log(`- ${f}`);
}
