// What a visitor sees at a phone's and a laptop's width: nothing wider than the screen (down to
// 320 px, WCAG 1.4.10), product mock-ups whose text is as large as drawn (cropped on a phone rather
// than shrunk) and never cut mid-word, one left edge for the home page's content, and tables that
// become labelled cards on a phone.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser.ts";
import { allRoutes } from "../support/routes.ts";
import { shownBox, within, type Rect } from "./shown.ts";

/** Scrolls through the page so that lazy images load, then back to the top. */
const loadWholePage = async (page: Page) => {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(r));
    }
    window.scrollTo(0, 0);
  });
};

type TextBox = Rect & { text: string };

/** How a mock-up <img> draws its picture: its own size, and how it fits its box. Runs in the page. */
function drawing(img: HTMLImageElement) {
  const { objectFit, objectPosition } = getComputedStyle(img);
  const width = Number(img.getAttribute("width"));
  const height = Number(img.getAttribute("height"));
  return { src: img.getAttribute("src") ?? "", width, height, objectFit, objectPosition };
}

/**
 * The part of a picture the visitor sees, in the picture's own pixels: the drawn part of its
 * <img>, mapped through how the picture is drawn in the box (at its own size where object-fit is
 * none, placed by object-position; otherwise scaled to the box).
 */
function inPicture(
  { box, shown }: { box: Rect; shown: Rect },
  { width, height, objectFit, objectPosition }: ReturnType<typeof drawing>,
): Rect {
  let scale = (box.right - box.left) / width;
  let { left, top } = box;
  if (objectFit === "none") {
    const [x = "0%", y = "0%"] = objectPosition.split(" ");
    const offset = (v: string, free: number) =>
      v.endsWith("%") ? (free * parseFloat(v)) / 100 : parseFloat(v);
    scale = 1;
    left += offset(x, box.right - box.left - width);
    top += offset(y, box.bottom - box.top - height);
  }
  return {
    left: (shown.left - left) / scale,
    top: (shown.top - top) / scale,
    right: (shown.right - left) / scale,
    bottom: (shown.bottom - top) / scale,
  };
}

/** Every <text> of the SVG picture in the page, in the picture's coordinates. Runs in the page. */
function textBoxes(): TextBox[] {
  const origin = document.querySelector("svg")!.getBoundingClientRect();
  return [...document.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return {
      text: t.textContent ?? "",
      left: r.left - origin.left,
      top: r.top - origin.top,
      right: r.right - origin.left,
      bottom: r.bottom - origin.top,
    };
  });
}

describeInBrowser("looks", (ctx) => {
  it(
    "fits every page into 390 px and draws every mock-up at least at its own size",
    { timeout: 300_000 },
    async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      let mockups = 0;
      for (const route of allRoutes) {
        await page.goto(route, { waitUntil: "networkidle" });
        await loadWholePage(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(overflow, `${route} is wider than the screen`).toBeLessThanOrEqual(390);
        const scales = await page.$$eval("img.mockup", (images) =>
          images
            .filter((img) => img.getBoundingClientRect().width > 0)
            .map((img) => {
              const fit = getComputedStyle(img).objectFit;
              const box = img.getBoundingClientRect();
              // The picture's own size is in its width and height attributes (loaded or not).
              const scale =
                fit === "none"
                  ? 1
                  : Math.min(
                      box.width / Number(img.getAttribute("width")),
                      box.height / Number(img.getAttribute("height")),
                    );
              return { src: img.getAttribute("src") ?? "", scale };
            }),
        );
        for (const { src, scale } of scales) {
          expect(scale, `${route}: ${src} drawn at ${scale.toFixed(2)}×`).toBeGreaterThanOrEqual(1);
        }
        mockups += scales.length;
      }
      expect(mockups).toBeGreaterThanOrEqual(10);
    },
  );

  it(
    "reflows every page at 320 px, with and without JavaScript: nothing scrolls sideways",
    { timeout: 300_000 },
    async () => {
      for (const javaScriptEnabled of [true, false]) {
        const page = await ctx.newPage({
          width: 320,
          height: 640,
          mobile: true,
          javaScriptEnabled,
        });
        for (const route of allRoutes) {
          await page.goto(route, { waitUntil: javaScriptEnabled ? "networkidle" : "load" });
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          const script = javaScriptEnabled ? "" : " without JavaScript";
          expect
            .soft(width, `${route} scrolls sideways at 320 px${script}`)
            .toBeLessThanOrEqual(320);
        }
      }
    },
  );

  it("keeps the contact details inside their card at 320 px, the address wrapped", async () => {
    const page = await ctx.newPage({ width: 320, height: 640, mobile: true });
    await page.goto("/contact");
    const card = (await page.getByRole("region", { name: "Contact details" }).boundingBox())!;
    const details = page.getByRole("region", { name: "Contact details" }).locator("dd");
    expect(await details.count()).toBe(4);
    for (const box of await details.evaluateAll((dds) =>
      dds.map((dd) => dd.firstElementChild ?? dd).map((el) => el.getBoundingClientRect().right),
    ))
      expect(box).toBeLessThanOrEqual(card.x + card.width);
  });

  it(
    "cuts no word of a mock-up's text on a phone: each text is shown whole or not at all",
    { timeout: 300_000 },
    async () => {
      // Without JavaScript every slide of a carousel is on the page, so every mock-up is seen; the
      // crop of a picture is the same in a carousel that runs.
      const page = await ctx.newPage({
        width: 390,
        height: 844,
        mobile: true,
        javaScriptEnabled: false,
      });
      const pictures = await ctx.newPage({ width: 1280, height: 900 });
      const textsOf = new Map<string, TextBox[]>();
      const cut: string[] = [];
      let seen = 0;
      for (const route of allRoutes) {
        await page.goto(route);
        for (const image of await page.$$("img.mockup")) {
          const { box, shown } = await image.evaluate(shownBox);
          if (!shown) continue;
          seen += 1;
          const picture = await image.evaluate(drawing);
          const part = inPicture({ box, shown }, picture);
          if (!textsOf.has(picture.src)) {
            // Inline, in a page of its own: the served file's own CSP would drop its styles.
            await pictures.setContent(await (await fetch(ctx.baseUrl + picture.src)).text());
            textsOf.set(picture.src, await pictures.evaluate(textBoxes));
          }
          for (const text of textsOf.get(picture.src)!) {
            const across =
              Math.min(text.right, part.right) - Math.max(text.left, part.left) > 0 &&
              Math.min(text.bottom, part.bottom) - Math.max(text.top, part.top) > 0;
            if (across && !within(text, part))
              cut.push(`${route}: "${text.text}" in ${picture.src}`);
          }
        }
      }
      expect(cut).toEqual([]);
      expect(seen).toBeGreaterThanOrEqual(20);
    },
  );

  it("lines the home page's content up on one left edge at 1280 px", async () => {
    const page = await ctx.newPage({ width: 1280, height: 900 });
    await page.goto("/", { waitUntil: "networkidle" });
    // Every block of content that is not a centred heading or lead: pictures, grids, carousels.
    const edges = await page.$$eval("main section > div.mx-auto > *", (blocks) =>
      blocks
        .filter((b) => !b.classList.contains("text-center"))
        .map((b) => Math.round(b.getBoundingClientRect().left)),
    );
    expect(edges.length).toBeGreaterThanOrEqual(6);
    expect(new Set(edges)).toEqual(new Set([edges[0]]));
  });

  it("draws the arrow of every select field (company size, department)", async () => {
    const page = await ctx.newPage({ width: 1280, height: 900 });
    await page.goto("/request-access", { waitUntil: "networkidle" });
    const selects = await page.$$eval("main select", (list) =>
      list.map((s) => {
        const style = getComputedStyle(s);
        return {
          image: style.backgroundImage,
          repeat: style.backgroundRepeat,
          colour: style.backgroundColor,
        };
      }),
    );
    expect(selects).toHaveLength(2);
    for (const { image, repeat, colour } of selects) {
      expect(image).toMatch(/^url\("data:image\/svg\+xml,/);
      expect(repeat).toBe("no-repeat");
      expect(colour).toBe("rgb(255, 255, 255)"); // the field's white, not lost to the arrow's classes
    }
  });

  it("shows each row of the cookie policy's tables as labelled lines at 390 px", async () => {
    const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
    await page.goto("/cookies-policy", { waitUntil: "networkidle" });
    const tables = await page.$$eval("main table", (list) =>
      list.map((table) => ({
        right: table.getBoundingClientRect().right,
        labels: [...table.querySelectorAll("tbody td")].map(
          (td) => getComputedStyle(td, "::before").content,
        ),
      })),
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const { right, labels } of tables) {
      expect(right).toBeLessThanOrEqual(390);
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label).toMatch(/^".+"$/);
    }
    // At 1280 px it is a table again, with its header row shown.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator("main thead").first().boundingBox()).toMatchObject({
      height: expect.any(Number),
    });
    expect((await page.locator("main thead").first().boundingBox())!.height).toBeGreaterThan(20);
  });
});
