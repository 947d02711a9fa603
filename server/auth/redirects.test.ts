// Where email links may lead (GoTrue's IsRedirectURLValid without an allow list): the site itself,
// any port of a loopback host, any loopback address over http or https; nowhere else, and never
// with credentials.
import { describe, expect, it } from "vitest";
import { allowedRedirect } from "./redirects.ts";

describe("allowedRedirect", () => {
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

  it("judges the URL as a browser will follow it: tabs, newlines, backslashes, escapes, credentials", () => {
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
  });
});
