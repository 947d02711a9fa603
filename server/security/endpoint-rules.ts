// What an endpoint may be, wherever it comes from (LEAD_WEBHOOK_URL at start, or an admin in the
// workspace): an https URL, or http to this machine only; a Standard Webhooks secret, `whsec_`
// and 24 to 64 random bytes in base64. A secret the workspace does not get is made here.
import crypto from "node:crypto";

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;
const PLAIN_HTTP_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const URL_RULE = "an https:// URL (http:// only to localhost, 127.0.0.1 or ::1)";
export const PUBLIC_URL_RULE = "an https:// URL of a public host";
export const SECRET_RULE = "whsec_ followed by 24 to 64 random bytes in base64";

/** The URL as it is stored, or undefined when it may not receive events. */
export function endpointUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const allowed =
    url.protocol === "https:" || (url.protocol === "http:" && PLAIN_HTTP_HOSTS.has(url.hostname));
  // Credentials in a URL would be shown to every member who reads the endpoints.
  if (!allowed || url.username || url.password) return undefined;
  return url.toString();
}

export function isEndpointSecret(value: string): boolean {
  const key = SECRET.exec(value)?.[1];
  const bytes = key === undefined ? 0 : Buffer.from(key, "base64").length;
  return bytes >= 24 && bytes <= 64;
}

/** A new secret: 32 random bytes. */
export function newEndpointSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64")}`;
}
