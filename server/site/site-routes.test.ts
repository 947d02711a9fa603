// Serving the built site, against a small fixture build written by the test.
import net from "node:net";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON_KEY_PLACEHOLDER } from "../../common/site-build.ts";
import { decoded, fixtureApp, INLINE } from "../../tests/support/site-fixture.ts";
import { inlineScripts, pageCsp } from "./site-files.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";

describe("site serving", () => {
  let app: FastifyInstance;
  const db = openTestPglite();
  beforeAll(async () => {
    app = await fixtureApp(await db);
  });
  afterAll(async () => {
    await app.close();
    await (await db).close();
  });

  it("serves every prerendered page with 200, no-cache, an ETag and the values filled in", async () => {
    for (const [url, title] of [
      ["/", "Home"],
      ["/faq", "FAQ"],
      ["/blog/ai-sales", "Post"],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(res.body).toContain('content="the.anon.key"');
      expect(res.body).toContain('href="https://revwise.example/faq"');
      expect(res.body).toContain('<html data-providers="google keycloak">');
      expect(res.body).not.toContain(ANON_KEY_PLACEHOLDER);
    }
  });

  it("answers a matching If-None-Match with 304", async () => {
    const first = await app.inject({ url: "/faq" });
    const again = await app.inject({
      url: "/faq",
      headers: { "if-none-match": first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("compares If-None-Match weakly, with any tag of a list or *, per representation", async () => {
    const status = async (ifNoneMatch: string, acceptEncoding = "identity") =>
      (
        await app.inject({
          url: "/faq",
          headers: { "if-none-match": ifNoneMatch, "accept-encoding": acceptEncoding },
        })
      ).statusCode;
    const tag = async (acceptEncoding: string) =>
      (await app.inject({ url: "/faq", headers: { "accept-encoding": acceptEncoding } })).headers
        .etag as string;
    const [plain, br, gzip] = [await tag("identity"), await tag("br"), await tag("gzip")];
    // Each content coding is its own representation, with its own tag.
    expect(new Set([plain, br, gzip]).size).toBe(3);
    expect(await status(`W/${plain}`)).toBe(304);
    expect(await status(`"other", ${plain}`)).toBe(304);
    expect(await status("*")).toBe(304);
    expect(await status(br, "br")).toBe(304);
    expect(await status(br, "gzip")).toBe(200);
    expect(await status(gzip, "gzip")).toBe(304);
    expect(await status(`"other"`)).toBe(200);
    expect(await status(plain.slice(0, -2) + '"')).toBe(200);
  });

  it("gives every content coding its own ETag, whatever Accept-Encoding says, and 304s the one chosen", async () => {
    // Pages (compressed at start), a precompressed asset, a filled-in file, the 404 page: each
    // larger than the threshold of on-the-fly compression. Each Accept-Encoding a client may
    // send (wildcards, q-values, exclusions, the x-gzip alias, none) and the coding it gets.
    const urls = ["/faq", "/assets/entry-abc123.js", "/sitemap.xml", "/no/such/page"];
    const accepts: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ["identity", undefined],
      ["*", "br"],
      ["deflate, *;q=0.5", "br"],
      ["br", "br"],
      ["gzip", "gzip"],
      ["x-gzip", "gzip"],
      ["gzip, deflate, br", "br"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0, *", "gzip"],
      ["*;q=0, identity", undefined],
      ["br;q=0, gzip;q=0", undefined],
      ["deflate", undefined],
    ];
    for (const url of urls) {
      const plain = await app.inject({ url, headers: { "accept-encoding": "identity" } });
      const tags = new Map<string, string | undefined>(); // ETag → content coding it was sent with
      for (const [accept, expected] of accepts) {
        const headers = accept === undefined ? {} : { "accept-encoding": accept };
        const res = await app.inject({ url, headers });
        const at = `${url} with Accept-Encoding: ${accept}`;
        const encoding = res.headers["content-encoding"] as string | undefined;
        const etag = res.headers.etag as string;
        expect(encoding, at).toBe(expected);
        expect(decoded(encoding, res.rawPayload).equals(plain.rawPayload), at).toBe(true);
        expect(res.headers.vary, at).toBe("accept-encoding");
        if (!tags.has(etag)) tags.set(etag, encoding);
        expect(tags.get(etag), `${at}: ${etag} named another coding`).toBe(encoding);
        // The same request made conditional with that tag is 304 (200 for the 404 page), with
        // the tag and Vary; HEAD says what GET says.
        const again = await app.inject({ url, headers: { ...headers, "if-none-match": etag } });
        expect(again.statusCode, at).toBe(res.statusCode === 200 ? 304 : res.statusCode);
        expect([again.headers.etag, again.headers.vary], at).toEqual([etag, "accept-encoding"]);
        const head = await app.inject({ method: "HEAD", url, headers });
        expect(
          [head.statusCode, head.headers.etag, head.headers["content-encoding"], head.body],
          at,
        ).toEqual([res.statusCode, etag, encoding, ""]);
      }
      expect(new Set(tags.values()), url).toEqual(new Set([undefined, "br", "gzip"]));
      // A tag of one coding revalidates nothing sent in another.
      for (const [etag, encoding] of tags)
        for (const accept of ["identity", "br", "gzip"]) {
          if ((accept === "identity" ? undefined : accept) === encoding) continue;
          const res = await app.inject({
            url,
            headers: { "accept-encoding": accept, "if-none-match": etag },
          });
          expect(res.statusCode, `${url} ${etag} (${encoding}) asked as ${accept}`).not.toBe(304);
        }
    }
  });

  it("compresses the server's own pages on the fly untagged, with Vary, whatever Accept-Encoding says", async () => {
    // The newsletter's pages (their 400 for a bad link is over the 1 KB threshold), like any
    // answer outside the site's files, are compressed as they are sent and carry no ETag, so no
    // tag can name one coding's bytes for another.
    for (const url of ["/newsletter/confirm?token=x", "/newsletter/unsubscribe?token=x"]) {
      const plain = await app.inject({ url, headers: { "accept-encoding": "identity" } });
      for (const accept of ["*", "deflate, *;q=0.5", "gzip", "br", "identity"]) {
        const res = await app.inject({ url, headers: { "accept-encoding": accept } });
        const encoding = res.headers["content-encoding"] as string | undefined;
        const at = `${url} with Accept-Encoding: ${accept}`;
        expect(res.headers.etag, at).toBeUndefined();
        if (accept !== "identity")
          expect([encoding, res.headers.vary], at).toEqual([
            expect.stringMatching(/^(br|gzip)$/),
            "accept-encoding",
          ]);
        expect(decoded(encoding, res.rawPayload).equals(plain.rawPayload), at).toBe(true);
      }
    }
  });

  it("gives each page a CSP that allows exactly its own inline scripts", async () => {
    const res = await app.inject({ url: "/faq" });
    const csp = res.headers["content-security-policy"] as string;
    expect(csp).toContain("script-src 'self' 'sha256-");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(inlineScripts(res.body)).toEqual([INLINE]); // JSON-LD is data, not script
    expect(pageCsp(res.body)).toBe(csp);
  });

  it("compresses pages (brotli preferred, gzip otherwise)", async () => {
    const br = await app.inject({
      url: "/faq",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain("<h1>FAQ</h1>");
    const gz = await app.inject({ url: "/faq", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain("<h1>FAQ</h1>");
    const none = await app.inject({
      url: "/faq",
      headers: { "accept-encoding": "br;q=0, gzip;q=0" },
    });
    expect(none.headers["content-encoding"]).toBeUndefined();
  });

  it("serves hashed assets as immutable, with the build's precompressed copies", async () => {
    const res = await app.inject({
      url: "/assets/entry-abc123.js",
      headers: { "accept-encoding": "br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["content-encoding"]).toBe("br");
  });

  it("fills the site URL into generated files such as the sitemap", async () => {
    const res = await app.inject({ url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.body).toContain("<loc>https://revwise.example/faq</loc>");
  });

  it("answers unknown pages with 404 and the not-found page", async () => {
    const res = await app.inject({ url: "/no/such/page" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toContain("<h1>Page not found</h1>");
    expect(res.headers["content-security-policy"]).toContain("'sha256-");
  });

  it("answers unknown blog posts with 404 and the blog's not-found page", async () => {
    const res = await app.inject({ url: "/blog/not-yet-written" });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain("<h1>Blog Post Not Found</h1>");
    expect((await app.inject({ url: "/blog/not-yet-written.data" })).statusCode).toBe(404);
  });

  it("does not serve the build's internal files as pages", async () => {
    for (const url of [
      "/__not-found",
      "/blog/__missing",
      "/__spa-fallback.html",
      "/blog/__missing.data",
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it("answers missing assets with a plain 404, not a page", async () => {
    const res = await app.inject({ url: "/assets/missing-123.js" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("redirects /resources/blog/* permanently to /blog/*, keeping the query", async () => {
    const res = await app.inject({ url: "/resources/blog/ai-sales?utm_source=x" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/blog/ai-sales?utm_source=x");
    // The blog's own old address, and a trailing slash with it, in one move.
    for (const [from, to] of [
      ["/resources/blog", "/blog"],
      ["/resources/blog/", "/blog"],
      ["/resources/blog/ai-sales/", "/blog/ai-sales"],
    ]) {
      const moved = await app.inject({ url: from });
      expect([moved.statusCode, moved.headers.location], from).toEqual([301, to]);
    }
  });

  it("redirects a trailing slash to the canonical path", async () => {
    const res = await app.inject({ url: "/faq/" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/faq");
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await app.inject({ method: "HEAD", url: "/faq" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
  });

  it("keeps API 404s in their protocol's shape next to the site", async () => {
    const res = await app.inject({ url: "/auth/v1/unknown" });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("not_found");
  });

  it("answers malformed percent-encoding with a 400, not a crash", async () => {
    const res = await app.inject({ url: "/%E0%A4%A" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400 });
  });

  it("sends a form posted without JavaScript to the page that says so, reading none of it", async () => {
    for (const [url, type, payload] of [
      [
        "/forms/no-javascript",
        "application/x-www-form-urlencoded",
        "email=a%40b.co&password=Secret-123",
      ],
      [
        "/forms/no-javascript",
        "multipart/form-data; boundary=x",
        '--x\r\nContent-Disposition: form-data; name="password"\r\n\r\nSecret-123\r\n--x--\r\n',
      ],
      ["/forms/no-javascript", "text/plain", "password=Secret-123"],
      ["/forms/no-javascript", undefined, undefined],
      // A page's own URL (an older copy of a page whose form had no action).
      ["/faq", "application/x-www-form-urlencoded", "password=Secret-123"],
    ] as const) {
      const res = await app.inject({
        method: "POST",
        url,
        payload,
        headers: type ? { "content-type": type } : {},
      });
      expect(res.statusCode, `${url} ${type}`).toBe(303);
      expect(res.headers.location).toBe("/javascript-required");
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.body).not.toContain("Secret");
    }
    const tooLarge = await app.inject({
      method: "POST",
      url: "/forms/no-javascript",
      payload: "x".repeat(70_000),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(tooLarge.statusCode).toBe(413);
  });

  it("answers another method on a page or file with 405 and the methods it takes, and a post to a path that is no page with a JSON 404", async () => {
    for (const [method, url, allow] of [
      ["POST", "/assets/entry-abc123.js", "GET, HEAD"],
      ["PUT", "/faq", "GET, HEAD, POST"],
      ["DELETE", "/", "GET, HEAD, POST"],
      ["OPTIONS", "/favicon.svg", "GET, HEAD"],
    ] as const) {
      const res = await app.inject({ method, url, payload: {} });
      expect({ status: res.statusCode, allow: res.headers.allow }, `${method} ${url}`).toEqual({
        status: 405,
        allow,
      });
      expect(res.json()).toEqual({
        statusCode: 405,
        error: "Method Not Allowed",
        message: `${method} is not allowed on ${url}`,
      });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
    for (const [method, url] of [
      ["POST", "/no/such/page"],
      ["PUT", "/no/such/page"],
    ] as const) {
      const res = await app.inject({ method, url, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json()).toMatchObject({ statusCode: 404, error: "Not Found" });
    }
  });
});

describe("redirects and answers outside the routes, over real HTTP", () => {
  let app: FastifyInstance;
  let base: string;
  const db = openTestPglite();
  beforeAll(async () => {
    app = await fixtureApp(await db);
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await app.close();
    await (await db).close();
  });

  /** One request as raw bytes on a socket: what a browser or a fuzzer may send, unnormalised. */
  const rawGet = (target: string, extraHeaders = "", host: string | null = "x") =>
    new Promise<{ status: number; headers: Record<string, string>; body: string }>(
      (resolve, reject) => {
        const { port } = new URL(base);
        const socket = net.connect(Number(port), "127.0.0.1");
        const chunks: Buffer[] = [];
        socket.on("data", (c) => chunks.push(c));
        socket.on("error", reject);
        socket.on("close", () => {
          const text = Buffer.concat(chunks).toString("latin1");
          const [head = "", ...rest] = text.split("\r\n\r\n");
          const [statusLine = "", ...lines] = head.split("\r\n");
          const headers: Record<string, string> = {};
          for (const line of lines) {
            const i = line.indexOf(":");
            headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
          }
          resolve({
            status: Number(statusLine.split(" ")[1]),
            headers,
            body: rest.join("\r\n\r\n"),
          });
        });
        socket.end(
          Buffer.concat([
            Buffer.from("GET "),
            Buffer.from(target, "utf8"),
            Buffer.from(
              ` HTTP/1.1\r\n${host === null ? "" : `Host: ${host}\r\n`}Connection: close\r\n${extraHeaders}\r\n`,
            ),
          ]),
        );
      },
    );
  const expectSecurityHeaders = (headers: Record<string, string | null>, what: string) => {
    expect(headers["x-content-type-options"], what).toBe("nosniff");
    expect(headers["x-frame-options"], what).toBe("DENY");
    expect(headers["content-security-policy"], what).toBeTruthy();
  };
  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { redirect: "manual", ...init });
    return {
      status: res.status,
      location: res.headers.get("location"),
      headers: Object.fromEntries(res.headers),
      body: await res.text(),
    };
  };

  it("percent-encodes every redirect target, and an unknown slug ends at the blog's 404", async () => {
    for (const [from, to] of [
      ["/resources/blog/%E2%82%AC", "/blog/%E2%82%AC"],
      ["/resources/blog/caf%C3%A9", "/blog/caf%C3%A9"],
      ["/resources/blog/caf%C3%A9?utm_source=%E2%82%AC", "/blog/caf%C3%A9?utm_source=%E2%82%AC"],
      ["/resources/blog/a%0D%0ASet-Cookie:%20x=1", "/blog/a%0D%0ASet-Cookie:%20x=1"],
      ["/resources/blog/a%2Fb", "/blog/a%2Fb"],
      ["/faq/?q=%E2%82%AC", "/faq?q=%E2%82%AC"],
    ]) {
      const res = await get(from!);
      expect(res.status, from).toBe(301);
      expect(res.location, from).toBe(to);
      expect(res.headers["set-cookie"], from).toBeUndefined();
      expectSecurityHeaders(res.headers, from!);
      if (from!.startsWith("/resources/")) {
        const landed = await get(to!.split("?")[0]!);
        expect(landed.status, to).toBe(404);
        expect(landed.body, to).toContain("<h1>Blog Post Not Found</h1>");
      }
    }
  });

  it("encodes the auth service's redirects (verify links with an odd redirect_to)", async () => {
    const redirectTo = "http://localhost:3000/caf\u00e9\u20ac\r\nSet-Cookie: x=1";
    const res = await get(
      `/auth/v1/verify?token=${"0".repeat(56)}&type=signup&redirect_to=${encodeURIComponent(redirectTo)}`,
    );
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^http:\/\/localhost:3000\/caf%C3%A9%E2%82%AC[\x21-\x7e]*#error=/);
    expect(res.headers["set-cookie"]).toBeUndefined();
    expectSecurityHeaders(res.headers, "verify");
  });

  it("refuses more than one Host line or a malformed Host with 400, and takes every well-formed one", async () => {
    const refused: [string, string, string | null][] = [
      ["/livez", "Host: b.example\r\n", "a.example"],
      ["/rest/v1/leads", "HOST: b.example\r\n", "a.example"],
      ["/livez", "host: x\r\n", "x"],
      ["/livez", "", "a b"],
      ["/livez", "", "evil.example/path"],
      ["/livez", "", "x@evil.example"],
      ["/auth/v1/health", "", "x@evil.example"],
      ["/livez", "", "[::1"],
      ["/livez", "", "[not-an-address]"],
      ["/livez", "", "evil.example:80x"],
      ["/livez", "", "evil.example:99999"],
      ["/livez", "", ""],
    ];
    for (const [path, extra, host] of refused) {
      const what = JSON.stringify([path, host, extra]);
      const res = await rawGet(path, extra, host);
      expect(res.status, what).toBe(400);
      expectSecurityHeaders(res.headers, what);
    }
    for (const host of [
      "x",
      "localhost:3000",
      "127.0.0.1",
      "[::1]:3000",
      "[2001:db8::1]",
      "www.revwise.example",
      "WWW.Revwise.Example.:443",
      "xn--bcher-kva.example",
    ])
      expect([host, (await rawGet("/livez", "", host)).status]).toEqual([host, 200]);
  });

  it("answers every refusal outside the routes with 4xx and the security headers, never 500", async () => {
    type Answer = { status: number; headers: Record<string, string> };
    const cases: [string, () => Promise<Answer>, number][] = [
      ["unknown page", () => get("/no/such/page"), 404],
      ["unknown asset", () => get("/assets/missing.js"), 404],
      ["bad escape", () => get("/%ZZ"), 400],
      ["bad escape in a blog path", () => get("/blog/%E0%A4%A"), 400],
      ["unknown API path", () => get("/auth/v1/nope"), 404],
      ["bad escape in an old blog link", () => get("/resources/blog/%ZZ"), 400],
      ["unknown method", () => get("/faq", { method: "PROPFIND" }), 404],
      ["parameter too long", () => get(`/rest/v1/${"t".repeat(300)}`), 404],
      ["raw non-ASCII bytes in the path", () => rawGet("/resources/blog/€"), 400],
      ["raw non-ASCII bytes in the query", () => rawGet("/faq/?q=€"), 400],
      [
        "body too large",
        () =>
          get("/rest/v1/newsletter_subscribers", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: "x".repeat(70_000) }),
          }),
        413,
      ],
      [
        "unsupported media type",
        () =>
          get("/rest/v1/newsletter_subscribers", {
            method: "POST",
            headers: { "content-type": "text/xml" },
            body: "<a/>",
          }),
        415,
      ],
      ["malformed request line", () => rawGet("/faq\tx"), 400],
      ["headers too large", () => rawGet("/faq", `x-big: ${"a".repeat(20_000)}\r\n`), 431],
      ["no Host header", () => rawGet("/faq", "", null), 400],
      ["no Host header on the API", () => rawGet("/rest/v1/leads", "", null), 400],
    ];
    for (const [what, answer, status] of cases) {
      const res = await answer();
      expect(res.status, what).toBe(status);
      expectSecurityHeaders(res.headers, what);
    }
  });
});
