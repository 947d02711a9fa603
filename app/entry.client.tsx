// The browser's entry, asked for by the page's inline start script once the page has painted
// (islands/page-start.ts, which also holds what the visitor does to islands meanwhile). The page
// is complete HTML; its interactive islands wake up once the page has loaded, so React's code
// never competes with the first paint (docs/decisions/0008).
const start = () => void import("./islands/boot.ts").then((m) => m.boot());

if (document.readyState === "complete") start();
else window.addEventListener("load", start, { once: true });
