// The `Prefer` header of PostgREST requests (supabase-js joins several with commas).
export type Preferences = {
  return: "minimal" | "representation" | "headers-only";
  count: "exact" | "planned" | "estimated" | undefined;
  missing: "default" | "null";
  resolution: "merge-duplicates" | "ignore-duplicates" | undefined;
  /** The preferences given and honoured, for `Preference-Applied`, in PostgREST's order. */
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

/** Each preference's values; PostgREST writes Preference-Applied in this order. */
const KNOWN = {
  resolution: ["merge-duplicates", "ignore-duplicates"],
  missing: ["default", "null"],
  return: ["minimal", "representation", "headers-only"],
  count: ["exact", "planned", "estimated"],
} as const;

/** The preferences of a request; of a preference given twice, the first counts (as PostgREST's). */
export function parsePrefer(header: string | string[] | undefined): Readonly<Preferences> {
  if (header === undefined || header === "") return DEFAULTS;
  const given: Partial<Record<keyof typeof KNOWN, string>> = {};
  const raw = Array.isArray(header) ? header.join(",") : header;
  for (const token of raw.split(",")) {
    const [key = "", value = ""] = token.split("=").map((s) => s.trim());
    if (!Object.hasOwn(KNOWN, key)) continue;
    const name = key as keyof typeof KNOWN;
    if (given[name] === undefined && (KNOWN[name] as readonly string[]).includes(value))
      given[name] = value;
  }
  const applied = (Object.keys(KNOWN) as (keyof typeof KNOWN)[])
    .filter((name) => given[name] !== undefined)
    .map((name) => `${name}=${given[name]}`);
  return { ...DEFAULTS, ...given, applied } as Preferences;
}
