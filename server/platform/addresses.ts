// What kind of host an address or a URL names: loopback (this machine only) or public (the
// internet), and what a client's address is counted as by per-client limits. One home for the
// ranges, so the dev mailbox, email links and admins' endpoints judge a host the same way, by its
// parsed address and never by how its text begins.
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

/** An IPv6 address's eight 16-bit groups (its zone, if any, dropped; a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const groups = (part: string | undefined) =>
    part ? part.split(":").map((group) => parseInt(group, 16)) : [];
  const front = groups(head);
  if (tail === undefined) return front;
  const back = groups(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * What per-client limits count a client's address as: an IPv4 address as it is, an IPv4-mapped
 * IPv6 address (`::ffff:a.b.c.d`, how a dual-stack socket sees an IPv4 client) as that IPv4
 * address, and any other IPv6 address as its /64 network, written one way whatever the spelling.
 * One subscriber is given a whole /64 and picks addresses in it freely, so counting each address
 * would give one client 2^64 budgets. Anything that is not an IP address is counted as it is.
 */
export function clientKey(address: string): string {
  if (!net.isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
