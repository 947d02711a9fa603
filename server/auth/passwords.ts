// Passwords: argon2id at OWASP's parameters (19 MiB, t=2, p=1), a policy with GoTrue's error
// shapes, and a constant-work check for unknown users so timing does not reveal accounts.
import { hash, verify, type Options } from "@node-rs/argon2";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { unreadable } from "./request.ts";

/** Algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax). */
const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Options["algorithm"],
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};
/** GoTrue refuses longer passwords (bcrypt's limit), and so do we for compatibility. */
export const MAX_PASSWORD_BYTES = 72;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a user without a password, after the cost of a real check. */
export async function verifyPassword(encoded: string | null, password: string): Promise<boolean> {
  if (!encoded) {
    await burnPasswordCheck(password);
    return false;
  }
  try {
    return await verify(encoded, password);
  } catch {
    return false;
  }
}

// A real hash of a random password: verifying against it costs what a real check costs.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(await dummy, password);
}

type WeakReason = "length" | "pwned";
type PasswordWeakness = { message: string; reasons: WeakReason[] };

/**
 * Why a password falls short of the policy (shorter than `minLength` bytes, as GoTrue counts, or
 * common), or undefined when it does not. CPU work only: a sign-in checks it on every success.
 */
export function passwordWeakness(
  password: string,
  minLength: number,
): PasswordWeakness | undefined {
  const reasons: WeakReason[] = [];
  const messages: string[] = [];
  if (Buffer.byteLength(password, "utf8") < minLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${minLength} characters.`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    reasons.push("pwned");
    messages.push("Password is known to be weak and easy to guess, please choose a different one.");
  }
  return reasons.length ? { message: messages.join(" "), reasons } : undefined;
}

/**
 * Throws GoTrue's errors: 400 bad_json for a password that is no string, 400 validation_failed
 * for missing/overlong, 422 weak_password for shorter than `minLength`
 * (GOTRUE_PASSWORD_MIN_LENGTH) bytes, as GoTrue counts, or common. `missingMessage` null: an
 * empty password is judged like any other (too short), as GoTrue's updates of a user judge it.
 */
export function checkPasswordPolicy(
  password: unknown,
  minLength: number,
  missingMessage: string | null = "Password is required",
): string {
  if (password !== undefined && typeof password !== "string")
    throw unreadable("password must be a string");
  if (password === undefined || (password.length === 0 && missingMessage !== null))
    throw new AuthError(400, ErrorCode.validation_failed, missingMessage ?? "Password is required");
  const bytes = Buffer.byteLength(password, "utf8");
  if (bytes > MAX_PASSWORD_BYTES) {
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`,
    );
  }
  const weakness = passwordWeakness(password, minLength);
  if (weakness)
    throw new AuthError(422, ErrorCode.weak_password, weakness.message, {
      weak_password: { reasons: weakness.reasons, message: weakness.message },
    });
  return password;
}
