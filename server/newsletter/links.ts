// The newsletter's links: confirm and unsubscribe, each proving one subscriber with a token the
// server signs (HMAC-SHA256 under a key derived from JWT_SECRET, decision 0030). A token names the
// subscriber's row id (random, says nothing about the address), what it is for, and for a
// confirmation when it expires; nothing is stored, so every instance checks what another issued,
// and a newsletter email written later carries an unsubscribe link without a lookup.
import crypto from "node:crypto";
import { isUuid } from "../platform/uuid.ts";
import { sameSecret } from "../security/constant-time.ts";

export type LinkPurpose = "confirm" | "unsubscribe";

/** How long a confirmation link works; unconfirmed addresses go after 30 days (subscribers.ts). */
const CONFIRM_LINK_SECONDS = 7 * 24 * 3600;

export const CONFIRM_PATH = "/newsletter/confirm";
export const UNSUBSCRIBE_PATH = "/newsletter/unsubscribe";
/** The archive of sent issues; an issue is at `/newsletter/<number>`. */
export const ARCHIVE_PATH = "/newsletter";

export class NewsletterLinks {
  private readonly key: crypto.KeyObject;
  private readonly siteUrl: string;

  constructor(key: crypto.KeyObject, siteUrl: string) {
    this.key = key;
    this.siteUrl = siteUrl;
  }

  /** The site's address of a path of it. */
  siteUrlOf(path: string): string {
    return `${this.siteUrl}${path}`;
  }

  /** `<id>.<expiry, Unix seconds in base 36; "0" for none>.<signature>`. */
  token(purpose: LinkPurpose, id: string, now = Date.now()): string {
    const exp =
      purpose === "confirm" ? Math.floor(now / 1000 + CONFIRM_LINK_SECONDS).toString(36) : "0";
    return `${id}.${exp}.${this.sign(purpose, id, exp)}`;
  }

  url(purpose: LinkPurpose, id: string, now = Date.now()): string {
    const path = purpose === "confirm" ? CONFIRM_PATH : UNSUBSCRIBE_PATH;
    return `${this.siteUrl}${path}?token=${this.token(purpose, id, now)}`;
  }

  /**
   * The subscriber a token proves for this purpose; "expired" for a genuine confirmation link past
   * its time; undefined for anything else (malformed, forged, another purpose's token).
   */
  verify(purpose: LinkPurpose, token: unknown, now = Date.now()): string | "expired" | undefined {
    if (typeof token !== "string" || token.length > 200) return undefined;
    const [id, exp, signature, ...rest] = token.split(".");
    if (rest.length > 0 || !isUuid(id) || !exp || !/^[0-9a-z]{1,10}$/.test(exp) || !signature)
      return undefined;
    if (!sameSecret(this.sign(purpose, id, exp), signature)) return undefined;
    if (exp !== "0" && parseInt(exp, 36) * 1000 < now) return "expired";
    return id.toLowerCase();
  }

  private sign(purpose: LinkPurpose, id: string, exp: string): string {
    return crypto
      .createHmac("sha256", this.key)
      .update(`newsletter:${purpose}:${id.toLowerCase()}:${exp}`)
      .digest("base64url");
  }
}
