// An identity provider's SAML metadata, read as GoTrue reads it (its parseSAMLMetadata): one
// entity, with exactly one IDPSSODescriptor; what a sign-in needs from it: the entity id, where
// the browser is sent with a request (the HTTP-Redirect binding) and the certificates its
// signatures are checked with.
import { DOMParser, type Element } from "@xmldom/xmldom";
import { AuthError, ErrorCode } from "../errors.ts";

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export type IdpMetadata = {
  entityId: string;
  /** Where authentication requests go (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The certificates the provider signs with, PEM. */
  signingCerts: string[];
  /** Until when the metadata says it holds (`validUntil`), if it says. */
  validUntil: Date | undefined;
  /** For how long it may be kept (`cacheDuration`), in seconds, if it says. */
  cacheSeconds: number | undefined;
};

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);

export function parseIdpMetadata(raw: string): IdpMetadata {
  if (raw.includes("\uFFFD"))
    throw invalid(
      "SAML Metadata XML contains invalid UTF-8 characters, which are not supported at this time",
    );
  let root: Element | null;
  try {
    // A document type (and so any entity) is refused: metadata never needs one.
    if (/<!DOCTYPE/i.test(raw)) throw new Error("document type");
    root = new DOMParser({
      onError: (level) => {
        if (level !== "warning") throw new Error("malformed");
      },
    }).parseFromString(raw, "text/xml").documentElement;
  } catch {
    throw invalid("SAML Metadata could not be parsed");
  }
  const entity = root ? entityOf(root) : undefined;
  if (!entity) throw invalid("SAML Metadata could not be parsed");
  const entityId = entity.getAttribute("entityID") ?? "";
  if (!entityId) throw invalid("SAML Metadata does not contain an EntityID");
  const descriptors = children(entity, MD, "IDPSSODescriptor");
  if (descriptors.length < 1) throw invalid("SAML Metadata does not contain any IDPSSODescriptor");
  if (descriptors.length > 1) throw invalid("SAML Metadata contains multiple IDPSSODescriptors");
  const idp = descriptors[0]!;
  const ssoUrl = children(idp, MD, "SingleSignOnService")
    .find((s) => s.getAttribute("Binding") === REDIRECT_BINDING)
    ?.getAttribute("Location");
  if (!ssoUrl || !/^https?:\/\//i.test(ssoUrl))
    throw invalid(
      "SAML Metadata does not contain a SingleSignOnService with the HTTP-Redirect binding",
    );
  const signingCerts = children(idp, MD, "KeyDescriptor")
    .filter((k) => (k.getAttribute("use") ?? "signing") === "signing")
    .flatMap((k) => [...k.getElementsByTagNameNS(DS, "X509Certificate")])
    .map((c) => pem((c.textContent ?? "").replace(/\s+/g, "")))
    .filter((c) => c !== undefined);
  if (signingCerts.length === 0)
    throw invalid("SAML Metadata does not contain a signing certificate");
  const validUntil = entity.getAttribute("validUntil");
  const until = validUntil ? new Date(validUntil) : undefined;
  return {
    entityId,
    ssoUrl,
    signingCerts,
    validUntil: until && !Number.isNaN(until.getTime()) ? until : undefined,
    cacheSeconds: isoDurationSeconds(entity.getAttribute("cacheDuration")),
  };
}

/** The EntityDescriptor itself, or the first of an EntitiesDescriptor's with an identity provider. */
function entityOf(root: Element): Element | undefined {
  if (root.namespaceURI !== MD) return undefined;
  if (root.localName === "EntityDescriptor") return root;
  if (root.localName !== "EntitiesDescriptor") return undefined;
  const entities = [...root.getElementsByTagNameNS(MD, "EntityDescriptor")];
  return entities.find((e) => children(e, MD, "IDPSSODescriptor").length > 0) ?? entities[0];
}

function children(parent: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling)
    if (node.nodeType === 1) {
      const element = node as Element;
      if (element.namespaceURI === ns && element.localName === name) found.push(element);
    }
  return found;
}

function pem(base64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const lines = base64.match(/.{1,64}/g)!.join("\n");
  return `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----`;
}

/** An xs:duration (`PT1H`, `P1D`) in seconds; years and months are not read. */
function isoDurationSeconds(value: string | null): number | undefined {
  const m = value?.match(/^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/);
  if (!m || value === "P" || value === "PT") return undefined;
  const [, d, h, min, s] = m;
  return Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0);
}
