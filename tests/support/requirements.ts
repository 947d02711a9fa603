// A suite that needs PostgreSQL or Chromium says so loudly and skips when the developer's machine
// lacks it; with CI=true the missing part fails the run instead (CI must test everything).
export const inCI = process.env.CI === "true" || process.env.CI === "1";

export function missing(what: string, howToFix: string): void {
  const message = `${what} is not available: ${howToFix}`;
  if (inCI) throw new Error(`${message} (CI=true: failing instead of skipping)`);
  const bar = "!".repeat(Math.min(100, message.length + 8));
  console.warn(`\n${bar}\n!!! SKIPPING: ${message}\n${bar}\n`);
}
