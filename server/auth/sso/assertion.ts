// What a verified SAML assertion says about its person, read as GoTrue's samlassertion.go reads
// it: the user's id at the provider (the subject-id attribute, else a NameID that is not
// transient), the address (the usual attributes, else an emailAddress NameID), the claims the
// provider's attribute mapping names, and where and to which request the assertion was addressed.
// The XML given here is the assertion node-saml verified the signature of, never the raw post.
import { DOMParser, type Element } from "@xmldom/xmldom";

const SAML = "urn:oasis:names:tc:SAML:2.0:assertion";
const SUBJECT_ID = "urn:oasis:names:tc:SAML:attribute:subject-id";
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const TRANSIENT_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
/** GoTrue's attribute names of an address, in its order. */
const EMAIL_ATTRIBUTES = [
  "urn:oid:0.9.2342.19200300.100.1.3",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "http://schemas.xmlsoap.org/claims/EmailAddress",
  "mail",
  "Mail",
  "email",
];

/** GoTrue's attribute mapping: each claim from the first attribute (of `name`, then `names`) set. */
export type AttributeMapping = {
  keys?: Record<string, { name?: string; names?: string[]; default?: unknown; array?: boolean }>;
};

type Attribute = { name: string; friendlyName: string; values: string[] };

export type Assertion = {
  nameId: string;
  nameIdFormat: string;
  attributes: Attribute[];
  /** Each bearer confirmation's Recipient and InResponseTo. */
  confirmations: { recipient: string; inResponseTo: string }[];
  /** The session's end the provider set (AuthnStatement SessionNotOnOrAfter), if any. */
  sessionNotOnOrAfter: Date | undefined;
};

export function readAssertion(xml: string): Assertion {
  const root = new DOMParser().parseFromString(xml, "text/xml").documentElement!;
  const nameIdNode = all(root, "NameID").find((n) => parentName(n) === "Subject");
  const attributes = all(root, "Attribute").map((a) => ({
    name: a.getAttribute("Name") ?? "",
    friendlyName: a.getAttribute("FriendlyName") ?? "",
    values: all(a, "AttributeValue").map((v) => v.textContent ?? ""),
  }));
  const confirmations = all(root, "SubjectConfirmationData").map((c) => ({
    recipient: c.getAttribute("Recipient") ?? "",
    inResponseTo: c.getAttribute("InResponseTo") ?? "",
  }));
  const sessionEnd = all(root, "AuthnStatement")
    .map((s) => s.getAttribute("SessionNotOnOrAfter"))
    .find((v) => v);
  const until = sessionEnd ? new Date(sessionEnd) : undefined;
  return {
    nameId: nameIdNode?.textContent ?? "",
    nameIdFormat: nameIdNode?.getAttribute("Format") ?? "",
    attributes,
    confirmations,
    sessionNotOnOrAfter: until && !Number.isNaN(until.getTime()) ? until : undefined,
  };
}

/** The Destination a Response names (its root element's), or "" for none. */
export function responseDestination(responseXml: string): string {
  const root = new DOMParser().parseFromString(responseXml, "text/xml").documentElement;
  return root?.getAttribute("Destination") ?? "";
}

function all(parent: Element, name: string): Element[] {
  return [...parent.getElementsByTagNameNS(SAML, name)];
}

function parentName(node: Element): string | undefined {
  return (node.parentNode as Element | null)?.localName ?? undefined;
}

/** The values of the attributes of this name or friendly name (case-insensitive). */
function valuesOf(assertion: Assertion, name: string): string[] {
  const wanted = name.toLowerCase();
  return assertion.attributes
    .filter((a) => a.name.toLowerCase() === wanted || a.friendlyName.toLowerCase() === wanted)
    .flatMap((a) => a.values);
}

/** GoTrue's UserID: the subject-id attribute, else a persistent (not transient) NameID. */
export function userIdOf(assertion: Assertion): string {
  const subjectId = valuesOf(assertion, SUBJECT_ID)[0];
  if (subjectId !== undefined) return subjectId;
  if (!assertion.nameId) return "";
  if (assertion.nameIdFormat === EMAIL_FORMAT) return assertion.nameId.trim().toLowerCase();
  return assertion.nameIdFormat === TRANSIENT_FORMAT ? "" : assertion.nameId;
}

/** GoTrue's Email: the first address attribute set, else an emailAddress NameID. */
export function emailOf(assertion: Assertion): string {
  for (const name of EMAIL_ATTRIBUTES) {
    const value = valuesOf(assertion, name).find((v) => v !== "");
    if (value) return value;
  }
  return assertion.nameIdFormat === EMAIL_FORMAT ? assertion.nameId : "";
}

/** GoTrue's Process: the claims the attribute mapping names. */
export function claimsOf(assertion: Assertion, mapping: AttributeMapping): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [key, mapper] of Object.entries(mapping.keys ?? {})) {
    const names = [...(mapper.name ? [mapper.name] : []), ...(mapper.names ?? [])];
    let set = false;
    for (const name of names) {
      const values = valuesOf(assertion, name).filter((v) => v !== "");
      if (values.length > 0) {
        set = true;
        claims[key] = mapper.array ? values : values[0];
        break;
      }
    }
    if (!set && mapper.default !== undefined && mapper.default !== null)
      claims[key] = mapper.default;
  }
  return claims;
}
