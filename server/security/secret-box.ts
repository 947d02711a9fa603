// Secrets the server must use again but the database alone must not give away (TOTP secrets, the
// codes of phone challenges, webhook endpoints' signing secrets): sealed with AES-256-GCM under a
// key derived for each purpose from the server's secret (keys.ts `derive`).
import crypto from "node:crypto";

const VERSION = "v1:";

export class SecretBox {
  private readonly key: crypto.KeyObject;

  constructor(key: crypto.KeyObject) {
    this.key = key;
  }

  seal(secret: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `${VERSION}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
  }

  /** The secret; throws when it was sealed under another key or changed since. */
  open(stored: string): string {
    const raw = Buffer.from(stored.slice(VERSION.length), "base64");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}

/** Whether a stored value is sealed (a value written before sealing, or by hand, is not). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(VERSION);
}
