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
  it.each([
    ["?next=%2Fteam", "/team"],
    ["?next=/team%23emails", "/team#emails"],
    ["", "/"],
    ["?next=https://evil.example/", "/"],
    ["?next=//evil.example/", "/"],
    ["?next=/%5Cevil.example", "/"],
    ["?next=team", "/"],
  ])("%s goes to %s", (search, path) => {
    expect(returnPath(search)).toBe(path);
  });
});
