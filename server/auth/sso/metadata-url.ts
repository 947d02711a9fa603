// An identity provider's metadata at its metadata URL: GoTrue's rule (HTTPS only; plain HTTP to a
// provider on loopback, as for the OpenID providers), fetched with a time limit and a size limit,
// and fetched anew when it is stale (GoTrue's IsSAMLMetadataStale).
import { isLoopbackHost } from "../../platform/addresses.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import type { IdpMetadata } from "./idp-metadata.ts";

const FETCH_TIMEOUT_MS = 10_000;
const MAX_METADATA_BYTES = 1_000_000;

/** The URL's refusal in GoTrue's words, or undefined when it may be fetched. */
export function metadataUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "metadata_url is not a valid URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, "")))
    return undefined;
  return "metadata_url is not a HTTPS URL";
}

export async function fetchSamlMetadata(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/xml;charset=UTF-8", "accept-charset": "UTF-8" },
      redirect: "error",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch {
    throw new AuthError(
      400,
      ErrorCode.saml_metadata_fetch_failed,
      `Unable to fetch SAML Metadata from URL '${url}'`,
    );
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new AuthError(
      400,
      ErrorCode.saml_metadata_fetch_failed,
      `HTTP ${res.status} error fetching SAML Metadata from URL '${url}'`,
    );
  }
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_METADATA_BYTES)
    throw new AuthError(
      400,
      ErrorCode.saml_metadata_fetch_failed,
      `SAML Metadata at URL '${url}' is larger than ${MAX_METADATA_BYTES} bytes`,
    );
  return new TextDecoder("utf-8", { fatal: false }).decode(body);
}

/**
 * Whether metadata kept since `updatedAt` is to be fetched anew: past its validUntil, past its
 * cacheDuration, or, when it says neither, a day old.
 */
export function isMetadataStale(metadata: IdpMetadata, updatedAt: Date, now = new Date()) {
  const age = now.getTime() - updatedAt.getTime();
  if (metadata.validUntil && now > metadata.validUntil) return true;
  if (metadata.cacheSeconds !== undefined && metadata.cacheSeconds > 0)
    return age > metadata.cacheSeconds * 1000;
  return !metadata.validUntil && age > 86_400_000;
}
