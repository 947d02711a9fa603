// Where email links may lead (GoTrue's IsRedirectURLValid without an allow list): the site itself,
// any port of a loopback host, any loopback address; nowhere else, and never with credentials.
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
});
