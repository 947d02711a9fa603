// Which addresses an admin's endpoint may reach: public ones only, unless the operator allows
// private ones (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). Otherwise a workspace admin could make this
// server POST to its own machine or network (databases' HTTP ports, cloud metadata, a router)
// and read the answer's status in the delivery log. The address is checked where the connection
// is made, after DNS (publicLookup), so a name that resolves elsewhere later is caught as well.
import dns from "node:dns";
import net from "node:net";

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

/** Whether an IP address (v4, v6 or v4-mapped v6) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The host of a URL as an IP address when it is one (URL keeps IPv6 in brackets). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return net.isIP(host) ? host : undefined;
}

/** Whether an endpoint's URL names a host that is not public by its name alone. */
export function namesPrivateHost(url: URL): boolean {
  const address = literalAddress(url);
  if (address !== undefined) return !isPublicAddress(address);
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host.endsWith(".localhost");
}

export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
}

/**
 * dns.lookup for http.request's `lookup` option that fails when the name resolves to any address
 * that is not public. (http.request calls it only for names: an IP literal is checked by the
 * caller, with namesPrivateHost.)
 */
export const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    // The address itself is not told: the delivery log would map the server's network.
    if (addresses.some(({ address }) => !isPublicAddress(address)))
      return callback(
        new PrivateAddressError(
          `${hostname} resolves to an address that is not public (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)`,
        ),
        [],
      );
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
