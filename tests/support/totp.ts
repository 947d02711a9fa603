// The codes an authenticator app shows, computed in the tests apart from the server's own TOTP
// code (server/auth/mfa/totp.ts), so a fault there cannot agree with itself: RFC 6238 (TOTP) over
// RFC 4226 (HOTP), HMAC-SHA1, 6 digits, 30-second steps, the secret in RFC 4648 base32. Checked
// against RFC 6238's test vectors in server/auth/mfa/totp.test.ts.
import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function fromBase32(secret: string): Buffer {
  const bits = [...secret.toUpperCase().replace(/[\s=]/g, "")]
    .map((char) => {
      const value = BASE32.indexOf(char);
      if (value < 0) throw new Error(`not a base32 secret: ${secret}`);
      return value.toString(2).padStart(5, "0");
    })
    .join("");
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** The 30-second time step (RFC 6238's T) at `ms` since the epoch. */
export const stepAt = (ms: number): number => Math.floor(ms / 30_000);

/** The 6-digit code of time step `step` for a base32 `secret` (RFC 4226's HOTP of T). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", fromBase32(secret)).update(counter).digest();
  const offset = mac[19]! & 0x0f;
  const truncated = mac.readUInt32BE(offset) & 0x7fffffff;
  return (truncated % 1_000_000).toString().padStart(6, "0");
}
