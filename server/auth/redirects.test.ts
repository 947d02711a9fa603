// Where email links may lead: in production, SITE_URL's origin only; elsewhere as GoTrue's
// IsRedirectURLValid without an allow list: the site itself, any port of a loopback host, any
// loopback address over http or https. Nowhere else, and never with credentials.
import { describe, expect, it, onTestFinished } from "vitest";
import { buildTestApp } from "../../tests/support/app.ts";
import { allowedRedirect as allowedIn, type RedirectSite } from "./redirects.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";

describe("allowedRedirect in development", () => {
  const allowedRedirect = (url: unknown, siteUrl: string) =>
    allowedIn(url, { siteUrl, env: "development" });

  it("allows the site and loopback, as GoTrue does, and nothing else", () => {
    const site = "https://revwise.example";
    for (const url of [
      "https://revwise.example/welcome?x=1",
      "https://revwise.example:443/",
      "http://127.0.0.1:9999/callback", // a native app on this device (RFC 8252)
      "http://[::1]:8080/",
    ])
      expect([url, allowedRedirect(url, site)]).toEqual([url, new URL(url).toString()]);
    for (const url of [
      "http://revwise.example/", // another scheme
      "https://revwise.example:8443/",
      "https://evil.example/",
      "https://revwise.example.evil.example/",
      "https://user:pw@revwise.example/",
      "http://localhost:3000/", // a name, not the site's host
      "not a url",
      "",
    ])
      expect([url, allowedRedirect(url, site)]).toEqual([url, undefined]);
    // On a local site, any port of its host.
    expect(allowedRedirect("http://localhost:5173/x", "http://localhost:3000")).toBe(
      "http://localhost:5173/x",
    );
  });

  it("leads to a loopback address over http or https only, never another scheme", () => {
    for (const site of ["https://revwise.example", "http://127.0.0.1:3000"])
      for (const url of [
        "javascript://127.0.0.1/%0aalert(1)",
        "javascript://[::1]/%0aalert(1)",
        "data://127.0.0.1/text/html,<script>alert(1)</script>",
        "file://127.0.0.1/etc/passwd",
        "ftp://127.0.0.1/",
        "ws://127.0.0.1:9999/",
        "myapp://127.0.0.1/callback",
      ])
        expect([site, url, allowedRedirect(url, site)]).toEqual([site, url, undefined]);
    expect(allowedRedirect("https://127.0.0.1:9999/cb", "https://revwise.example")).toBe(
      "https://127.0.0.1:9999/cb",
    );
  });
});

it.each(["development", "production"])(
  "judges the URL as a browser will follow it (%s): tabs, newlines, backslashes, escapes, credentials",
  (env) => {
    const allowedRedirect = (url: unknown, siteUrl: string) => allowedIn(url, { siteUrl, env });
    const site = "https://revwise.example";
    // The WHATWG parser drops tabs and newlines anywhere, takes `\` for `/` and decodes escapes
    // in the host: each of these names another host (or credentials) once parsed.
    for (const url of [
      "https://revwise.example\t.evil.example/",
      "https://revwise.example\n.evil.example/",
      "https://revwise.example\t@evil.example/",
      "https://revwise.example:443\r\n@evil.example/",
      "https://evil.example\t@revwise.example/",
      "https://revwise.example@evil.example/",
      "https:\\\\evil.example/",
      "https:/\\evil.example/",
      "https:evil.example/",
      "https://revwise.example%2eevil.example/",
      "https://revwise.example%40evil.example/",
      "https://%65vil.example/",
      "https://revwise.example./",
      " https://evil.example/",
      "//evil.example/",
      "/\t/evil.example",
      "/\\evil.example",
      "http://127.0.0.1.evil.example/",
      "javascript:alert(1)//revwise.example",
    ])
      expect([url, allowedRedirect(url, site)]).toEqual([url, undefined]);
    // What stays on the site is handed on as the parser wrote it: the Location header and the
    // email's link never carry a raw tab, newline or backslash.
    for (const [url, written] of [
      ["https://revwise.example\\@evil.example/", "https://revwise.example/@evil.example/"],
      ["\thttps://REVWISE.example/x", "https://revwise.example/x"],
      ["https://revwise%2eexample/", "https://revwise.example/"],
      [
        "https://revwise.example\r\n/x\r\nSet-Cookie: a=b",
        "https://revwise.example/xSet-Cookie:%20a=b",
      ],
    ])
      expect([url, allowedRedirect(url, site)]).toEqual([url, written]);
    expect(allowedRedirect("http://localhost\t.evil.example:3000/", "http://localhost:3000")).toBe(
      undefined,
    );
  },
);

describe("allowedRedirect in production", () => {
  const production = (siteUrl: string): RedirectSite => ({ siteUrl, env: "production" });

  it("leads to SITE_URL's origin only: no other port of its host, no loopback address", () => {
    const site = production("https://revwise.example");
    for (const url of ["https://revwise.example/welcome?x=1", "https://REVWISE.example:443/"])
      expect([url, allowedIn(url, site)]).toEqual([url, new URL(url).toString()]);
    for (const url of [
      "http://127.0.0.1:9999/callback",
      "https://127.0.0.1:9999/cb",
      "http://[::1]:8080/",
      "http://localhost/",
      "http://revwise.example/",
      "https://revwise.example:8443/",
      "https://user:pw@revwise.example/",
    ])
      expect([url, allowedIn(url, site)]).toEqual([url, undefined]);
    // A site served on loopback: its own port only.
    const local = production("http://localhost:3000");
    expect(allowedIn("http://localhost:3000/x", local)).toBe("http://localhost:3000/x");
    for (const url of ["http://localhost:5173/x", "http://127.0.0.1:3000/", "http://[::1]:3000/"])
      expect([url, allowedIn(url, local)]).toEqual([url, undefined]);
  });

  it("sends a link whose redirect_to is a loopback port to SITE_URL instead", async () => {
    const db = await openTestPglite();
    const app = await buildTestApp(db, {
      env: { NODE_ENV: "production", SITE_URL: "https://revwise.example" },
    });
    onTestFinished(async () => {
      await app.close();
      await db.close();
    });
    const verify = (redirectTo: string) =>
      app.inject({
        method: "GET",
        url: `/auth/v1/verify?type=signup&token=${"0".repeat(56)}&redirect_to=${encodeURIComponent(redirectTo)}`,
      });
    const away = await verify("http://127.0.0.1:9999/callback");
    expect(away.statusCode).toBe(303);
    expect(away.headers.location).toMatch(/^https:\/\/revwise\.example\/[?#]/);
    const home = await verify("https://revwise.example/welcome");
    expect(home.headers.location).toMatch(/^https:\/\/revwise\.example\/welcome[?#]/);
  });
});

describe("GOTRUE_URI_ALLOW_LIST", () => {
  const site = (uriAllowList: string[]) => ({
    siteUrl: "https://revwise.example",
    env: "production",
    uriAllowList,
  });

  it("allows what its globs match, as GoTrue's: * within a name or path part, ** across", () => {
    const list = site([
      "https://*.preview.revwise.example/**",
      "com.revwise.app://callback",
      "https://{docs,help}.revwise.example/welcome",
    ]);
    for (const url of [
      "https://pr-12.preview.revwise.example/auth/callback?next=/account",
      "com.revwise.app://callback",
      "https://help.revwise.example/welcome#top",
    ])
      expect([url, allowedIn(url, list)]).toEqual([url, new URL(url).toString()]);
    for (const url of [
      "https://a.b.preview.revwise.example/x", // * never crosses a dot
      "https://evil.example/?https://x.preview.revwise.example/",
      "com.revwise.app://callback/more",
      "https://blog.revwise.example/welcome",
      "https://user:pw@pr-1.preview.revwise.example/",
    ])
      expect([url, allowedIn(url, list)]).toEqual([url, undefined]);
  });
});
