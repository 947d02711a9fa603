// The `Prefer` header of PostgREST requests (supabase-js joins several with commas).
export type Preferences = {
  return: "minimal" | "representation" | "headers-only";
  count: "exact" | "planned" | "estimated" | undefined;
  missing: "default" | "null";
  resolution: string | undefined;
  applied: string[];
};

/** PostgREST's defaults: what a request without a `Prefer` header gets (most of them). */
const DEFAULTS: Readonly<Preferences> = Object.freeze({
  return: "minimal",
  count: undefined,
  missing: "null",
  resolution: undefined,
  applied: Object.freeze([]) as unknown as string[],
});

export function parsePrefer(header: string | string[] | undefined): Readonly<Preferences> {
  if (header === undefined || header === "") return DEFAULTS;
  const prefs: Preferences = { ...DEFAULTS, applied: [] };
  const raw = Array.isArray(header) ? header.join(",") : (header ?? "");
  for (const token of raw
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const [key, value] = token.split("=").map((s) => s.trim());
    if (
      key === "return" &&
      (value === "minimal" || value === "representation" || value === "headers-only")
    ) {
      prefs.return = value;
      prefs.applied.push(token);
    } else if (
      key === "count" &&
      (value === "exact" || value === "planned" || value === "estimated")
    ) {
      prefs.count = value;
      prefs.applied.push(token);
    } else if (key === "missing" && (value === "default" || value === "null")) {
      prefs.missing = value;
      prefs.applied.push(token);
    } else if (key === "resolution") {
      prefs.resolution = value;
    }
  }
  return prefs;
}
