// Hosts judged by their parsed address: public and non-public ranges, loopback names and
// addresses in every spelling, and names that merely begin like one; and what per-client limits
// count a client's address as.
import { describe, expect, it } from "vitest";
import { clientKey, ipOfHost, isLoopbackHost, isPublicAddress } from "./addresses.ts";

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

describe("public addresses", () => {
  it("tells public addresses from loopback, private, link-local, shared and reserved ones", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "172.32.0.1"])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.0.0.1",
      "100.64.1.1",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "::ffff:0:7f00:1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "not an address",
    ])
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });
});

describe("client keys", () => {
  it("counts an IPv4 client by its address, written as an IPv4-mapped IPv6 address or not", () => {
    expect(clientKey("192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey("::FFFF:c000:207")).toBe("192.0.2.7");
    expect(clientKey("0:0:0:0:0:ffff:192.0.2.7")).toBe("192.0.2.7");
  });

  it("counts an IPv6 client by its /64 network, however the address is spelled", () => {
    const network = "2001:db8:1:1::/64";
    for (const address of [
      "2001:db8:1:1::1",
      "2001:db8:1:1:ffff::2",
      "2001:DB8:1:1:FFFF:FFFF:FFFF:FFFF",
      "2001:0db8:0001:0001:0000:0000:0000:0001",
      "2001:db8:1:1:0:0:192.0.2.7",
      "2001:db8:1:1::1%eth0",
    ])
      expect([address, clientKey(address)]).toEqual([address, network]);
    expect(clientKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1:2")).toBe("fe80:0:0:0::/64");
  });

  it("keeps what is not an IP address as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
    expect(clientKey("")).toBe("");
  });
});
