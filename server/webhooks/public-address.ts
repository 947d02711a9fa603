// Which addresses an admin's endpoint may reach: public ones only, unless the operator allows
// private ones (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). Otherwise a workspace admin could make this
// server POST to its own machine or network (databases' HTTP ports, cloud metadata, a router)
// and read the answer's status in the delivery log. The address is checked where the connection
// is made, after DNS (publicLookup), so a name that resolves elsewhere later is caught as well.
import dns from "node:dns";
import type net from "node:net";
import { ipOfHost, isPublicAddress } from "../platform/addresses.ts";

/** Whether an endpoint's URL names a host that is not public by its name alone. */
export function namesPrivateHost(url: URL): boolean {
  const address = ipOfHost(url.hostname);
  if (address !== undefined) return !isPublicAddress(address);
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host.endsWith(".localhost");
}

/** A host that is not public: named so in the URL, or `resolved` so by its name's addresses. */
export class PrivateAddressError extends Error {
  readonly code = "EPRIVATEADDRESS";
  readonly resolved: boolean;

  constructor(host: string, resolved: boolean) {
    const what = resolved ? "resolves to an address that is not public" : "is not a public address";
    super(`${host} ${what} (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)`);
    this.resolved = resolved;
  }
}

/**
 * dns.lookup for http.request's `lookup` option that fails when the name resolves to any address
 * that is not public. (http.request calls it only for names: an IP literal is checked by the
 * caller, with namesPrivateHost.)
 */
export const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    // The address itself is not told (and the delivery log says no more than for a name that
    // does not resolve: webhook-worker.ts shownFailure).
    if (addresses.some(({ address }) => !isPublicAddress(address)))
      return callback(new PrivateAddressError(hostname, true), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
