// A suite that needs PostgreSQL or Chromium says so loudly and skips when the developer's machine
// lacks it; with CI=true the missing part fails the run instead (CI must test everything).
export const inCI = process.env.CI === "true" || process.env.CI === "1";

export function missing(what: string, howToFix: string): void {
  const message = `${what} is not available: ${howToFix}`;
  if (inCI) throw new Error(`${message} (CI=true: failing instead of skipping)`);
  const bar = "!".repeat(Math.min(100, message.length + 8));
  console.warn(`\n${bar}\n!!! SKIPPING: ${message}\n${bar}\n`);
}

/**
 * Whether a service answers `probe` (which throws when it does not); when it does not, says so
 * through missing() with the error's message.
 */
export async function answers(
  what: string,
  howToFix: string,
  probe: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (err) {
    missing(`${what} (${(err as Error).message})`, howToFix);
    return false;
  }
}
