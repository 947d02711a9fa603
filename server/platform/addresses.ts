// What kind of host an address or a URL names: loopback (this machine only) or public (the
// internet). One home for the ranges, so the dev mailbox, email links and admins' endpoints judge
// a host the same way, by its parsed address and never by how its text begins.
import net from "node:net";

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");
LOOPBACK.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

/** Loopback, private, link-local, shared, reserved, documentation and multicast ranges. */
const NOT_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3], // multicast, reserved and broadcast
] as const)
  NOT_PUBLIC.addSubnet(prefix, bits, "ipv4");
for (const [prefix, bits] of [
  ["::", 96], // unspecified, loopback and the old IPv4-compatible form
  ["::ffff:0:0:0", 96], // IPv4-translated: an IPv4 address inside
  ["64:ff9b::", 96], // NAT64: an IPv4 address inside, which may be private
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23], // IETF protocol assignments (Teredo among them)
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4: an IPv4 address inside
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  NOT_PUBLIC.addSubnet(prefix, bits, "ipv6");

const inRanges = (ranges: net.BlockList, address: string) => {
  const family = net.isIP(address);
  return family !== 0 && ranges.check(address, family === 4 ? "ipv4" : "ipv6");
};

/** Whether an IP address (v4, v6 or v4-mapped v6) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  return net.isIP(address) !== 0 && !inRanges(NOT_PUBLIC, address);
}

/** A host as URLs and HOST write it (IPv6 with or without brackets) as an IP address, if it is one. */
export function ipOfHost(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  return net.isIP(bare) ? bare : undefined;
}

/** Whether an IP address is this machine's loopback. */
export function isLoopbackAddress(address: string): boolean {
  return inRanges(LOOPBACK, address);
}

/** Whether a host name or address names this machine: localhost or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const address = ipOfHost(host);
  return address === undefined ? host.toLowerCase() === "localhost" : isLoopbackAddress(address);
}
