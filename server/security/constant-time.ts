// Comparing a secret the client sent with the one expected, in time that does not depend on where
// they differ. Compared as bytes: two texts of the same length in characters may differ in
// bytes (a non-ASCII character), which node's timingSafeEqual refuses with an exception.
import crypto from "node:crypto";

export function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
