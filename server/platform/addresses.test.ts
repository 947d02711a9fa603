// Hosts judged by their parsed address: loopback names and addresses in every spelling, and
// names that merely begin like one.
import { describe, expect, it } from "vitest";
import { ipOfHost, isLoopbackHost } from "./addresses.ts";

describe("loopback hosts", () => {
  it("knows localhost and every loopback address, bracketed or not", () => {
    for (const host of [
      "localhost",
      "LOCALHOST",
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "[::1]",
      "::ffff:127.0.0.1",
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
  });

  it("refuses names that only begin like a loopback address, and other machines", () => {
    for (const host of [
      "127.attacker.example",
      "127.0.0.1.nip.io",
      "localhost.example",
      "0.0.0.0",
      "::",
      "10.0.0.1",
      "[::2]",
      "",
    ])
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });

  it("reads an IP address out of a host as URLs write it", () => {
    expect(ipOfHost("[2001:db8::1]")).toBe("2001:db8::1");
    expect(ipOfHost("192.0.2.1")).toBe("192.0.2.1");
    expect(ipOfHost("example.com")).toBeUndefined();
  });
});
