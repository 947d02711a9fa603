// One POST of a webhook event over node:http(s): the status of the answer and its Retry-After;
// the body is discarded unread, and no redirect is followed (a redirect is not a delivery).
// With `publicOnly`, the connection is made to public addresses only (public-address.ts): the
// host named in the URL, and every address its name resolves to, at the moment of connecting.
import http from "node:http";
import https from "node:https";
import { namesPrivateHost, PrivateAddressError, publicLookup } from "./public-address.ts";

export type Answer = { status: number; retryAfter: string | null };

// Connections checked by publicLookup are pooled apart: a kept-alive socket of an unchecked
// request (the operator's endpoint) is never reused for a checked one to the same host.
const checked = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

export function postEvent(
  url: string,
  opts: { headers: Record<string, string>; body: string; signal: AbortSignal; publicOnly: boolean },
): Promise<Answer> {
  const target = new URL(url);
  if (opts.publicOnly && namesPrivateHost(target))
    return Promise.reject(new PrivateAddressError(target.hostname, false));
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...opts.headers, "content-length": Buffer.byteLength(opts.body) },
        signal: opts.signal,
        ...(opts.publicOnly && {
          lookup: publicLookup,
          agent: checked[target.protocol as keyof typeof checked],
        }),
      },
      (response) => {
        response.on("error", () => {}); // an abort while the unread body drains is no news
        response.resume();
        const retryAfter = response.headers["retry-after"];
        resolve({ status: response.statusCode ?? 0, retryAfter: retryAfter ?? null });
      },
    );
    request.on("error", reject);
    request.end(opts.body);
  });
}
