// redirect_to is honoured only when it points at our own site (same scheme and host; any port on
// localhost); anything else silently becomes SITE_URL, as in GoTrue.
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function safeRedirect(candidate: unknown, siteUrl: string): string {
  if (typeof candidate !== "string" || candidate === "") return siteUrl;
  try {
    const target = new URL(candidate);
    const site = new URL(siteUrl);
    const sameSite =
      target.protocol === site.protocol &&
      (target.host === site.host ||
        (LOCAL_HOSTS.has(target.hostname) && LOCAL_HOSTS.has(site.hostname)));
    return sameSite && !target.username && !target.password ? target.toString() : siteUrl;
  } catch {
    return siteUrl;
  }
}

/** Appends parameters to the fragment (implicit flow) or the query (PKCE) of a redirect. */
export function withParams(
  url: string,
  params: Record<string, string>,
  where: "hash" | "query",
): string {
  const target = new URL(url);
  const encoded = new URLSearchParams(params).toString();
  if (where === "query") {
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    return target.toString();
  }
  target.hash = encoded;
  return target.toString();
}
