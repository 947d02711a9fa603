// What a failed exchange with a peer (the SMTP server, a webhook endpoint) may say where the
// workspace reads it (an email's or a delivery's last error): the kind of failure and nothing
// of the network behind it. Node's own texts name the address and port connected to and the name
// looked up ("connect ECONNREFUSED 10.0.0.7:587", "getaddrinfo ENOTFOUND crm.internal"); an
// admin could map the server's network with them, and tell a name that resolves to a private
// address from one that does not resolve. The full error belongs in the server's log.

/** The name did not lead to an address this server may connect to. */
const NO_ADDRESS = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NODATA",
  "EAI_NONAME",
  "ENODATA",
  "EDNS", // nodemailer's
  "EPRIVATEADDRESS", // resolved only to addresses this server may not reach
]);
const NOT_CONNECTED = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "ECONNECTION", // nodemailer's
  "ESOCKET", // nodemailer's, for any socket error
]);
const CUT = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);
const TIMED_OUT = new Set(["ETIMEDOUT", "ETIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "TimeoutError"]);
/** Certificate and handshake failures, by their codes (their texts can name hosts). */
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|ETLS$|EPROTO$|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

/** The error's code (or a timeout's name), and its causes'. */
export function codesOf(err: unknown): string[] {
  const codes: string[] = [];
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 3; depth++) {
    const { code, name, cause } = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    if (name === "TimeoutError") codes.push(name);
    e = cause;
  }
  return codes;
}

/**
 * What the workspace is told of `err`, a failure to reach `peer` ("the endpoint", "the SMTP
 * server"); undefined when it is no failure of the connection (an answer the peer gave).
 */
export function connectionFailure(err: unknown, peer: string): string | undefined {
  for (const code of codesOf(err)) {
    if (NO_ADDRESS.has(code)) return `${peer} has no address this server may reach`;
    if (TIMED_OUT.has(code)) return `${peer} did not answer in time`;
    if (NOT_CONNECTED.has(code)) return `could not connect to ${peer}`;
    if (CUT.has(code)) return `${peer} closed the connection`;
    if (TLS.test(code)) return `TLS with ${peer} failed (${code})`;
  }
  return undefined;
}
