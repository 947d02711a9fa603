import { describe, expect, it } from "vitest";
import { describeDevice, qrCodeImageSrc, returnPath } from "./account.ts";

describe("describeDevice", () => {
  it.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
    ["node", "A browser"],
    [null, "Unknown device"],
  ])("%s → %s", (agent, expected) => {
    expect(describeDevice(agent)).toBe(expected);
  });
});

describe("qrCodeImageSrc", () => {
  it("percent-encodes the SVG supabase-js hands over raw, so a # colour does not end the data", () => {
    const src = qrCodeImageSrc('data:image/svg+xml;utf-8,<svg fill="#000"><path d="M0 0"/></svg>');
    expect(src).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent('<svg fill="#000"><path d="M0 0"/></svg>')}`,
    );
    expect(src).not.toContain("#");
  });
});

describe("returnPath", () => {
  const origin = "https://revwise.example";
  it.each([
    ["?next=%2Fteam", "/team"],
    ["?next=/team%23emails", "/team#emails"],
    ["?next=%2Fteam%3Ftab%3Demails%23lead", "/team?tab=emails#lead"],
    // An escape meant for the path stays one: the browser asks this site for /%2F/evil.
    ["?next=%2F%252F%2Fevil", "/%2F/evil"],
    ["", "/"],
    ["?next=team", "/"],
    ["?next=https://evil.example/", "/"],
    ["?next=https://revwise.example/team", "/"],
    ["?next=//evil.example/", "/"],
    ["?next=/%5Cevil.example", "/"],
    ["?next=%5C%5Cevil.example", "/"],
    ["?next=%5C%2Fevil.example", "/"],
    ["?next=/%5C%5Cevil.example", "/"],
    ["?next=/%2F/evil.example", "/"],
    // Browsers drop tabs and newlines anywhere in a URL: `/<tab>/host` is `//host`.
    ["?next=%2F%09%2Fevil.example%2Fphish", "/"],
    ["?next=%2F%0A%2Fevil.example%2Fphish", "/"],
    ["?next=%2F%0D%2Fevil.example%2Fphish", "/"],
    ["?next=%2F%0D%0A%09%2Fevil.example", "/"],
    ["?next=%2F%09%5Cevil.example", "/"],
    ["?next=%09%2F%2Fevil.example", "/"],
    ["?next=%2F%2F%09evil.example", "/"],
    ["?next=/%20/evil.example", "/%20/evil.example"],
    // Dot segments that leave `//host` once resolved.
    ["?next=/..//evil.example", "/"],
    ["?next=/.//evil.example", "/"],
    ["?next=/%2e%2e//evil.example", "/"],
    ["?next=/team/..//evil.example", "/"],
    ["?next=javascript:alert(1)", "/"],
    ["?next=JavaScript%3Aalert(document.domain)", "/"],
    ["?next=%09javascript:alert(1)", "/"],
    ["?next=/javascript:alert(1)", "/javascript:alert(1)"],
    ["?next=data:text/html,hi", "/"],
    ["?next=https:evil.example", "/"],
    ["?next=//user@evil.example", "/"],
    ["?next=/team%09", "/team"],
  ])("%s goes to %s", (search, path) => {
    expect(returnPath(search, origin)).toBe(path);
  });
});
