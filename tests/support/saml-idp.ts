// A real SAML 2.0 identity provider on loopback, standing in for a company's (Okta, Entra ID,
// Google Workspace): the maintained `samlify` library as the IdP, with a key and certificate of
// its own. It reads our signed authentication request from the HTTP-Redirect binding (checking
// its signature against our metadata's certificate) and answers with a response it signs itself,
// posted back by a self-submitting form as a browser would carry it (HTTP-POST binding). A test
// may change any value of the response (audience, recipient, times, InResponseTo), have it
// signed with another key, or take the signed XML to tamper with.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as samlify from "samlify";
import { selfSignedCertificate } from "../../server/auth/sso/certificate.ts";

// The IdP parses our requests; their schema is not what these tests are about.
samlify.setSchemaValidator({ validate: async () => "skipped" });

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";

/** An RSA key and a self-signed certificate for it, PEM. */
function rsaKeyWithCert(commonName: string) {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const certPem = selfSignedCertificate(privateKey, {
    commonName,
    serial: crypto
      .randomBytes(8)
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
  });
  return { keyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(), certPem };
}

/** GOTRUE_SAML_PRIVATE_KEY for a new RSA key: standard Base64 of its PKCS#1 DER. */
export function samlPrivateKeyEnv(): string {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return privateKey.export({ format: "der", type: "pkcs1" }).toString("base64");
}

/** A person at the identity provider. */
export type SamlPerson = {
  nameId: string;
  nameIdFormat?: string;
  /** Attributes by name, each with its values. */
  attributes?: Record<string, string[]>;
};

/** Values of the response to change: anything a forged or stale response would differ by. */
export type ResponseOverrides = Partial<{
  Audience: string;
  SubjectRecipient: string;
  Destination: string;
  InResponseTo: string;
  SubjectInResponseTo: string;
  IssueInstant: string;
  ConditionsNotBefore: string;
  ConditionsNotOnOrAfter: string;
  SubjectConfirmationDataNotOnOrAfter: string;
}>;

export type SamlAnswer = {
  /** Our ACS, where the form posts. */
  acs: string;
  SAMLResponse: string;
  RelayState: string;
};

export type TestSamlIdp = {
  readonly entityId: string;
  /** Its metadata, as an administrator pastes it (also served at `metadataUrl`). */
  readonly metadataXml: string;
  readonly metadataUrl: string;
  /** Who signs in at its login page (the browser tests). */
  person: SamlPerson;
  /**
   * The answer to the request in `ssoUrl` (the URL our POST /sso sent the browser to), for
   * `person`: signed as asked (the assertion, the whole response, or both), by this IdP's key or
   * by `foreignKey`.
   */
  answer(
    ssoUrl: string,
    person: SamlPerson,
    opts?: {
      sign?: "assertion" | "response" | "both";
      overrides?: ResponseOverrides;
      foreignKey?: boolean;
    },
  ): Promise<SamlAnswer>;
  close(): Promise<void>;
};

/**
 * Starts the IdP. `spMetadata` gives our service provider's metadata (fetched from the server
 * under test when the first request comes).
 */
export async function startSamlIdp(
  spMetadata: () => Promise<string>,
  entityId = `https://idp-${crypto.randomUUID().slice(0, 8)}.example/saml`,
): Promise<TestSamlIdp> {
  const own = rsaKeyWithCert("Test SAML IdP");
  const foreign = rsaKeyWithCert("Test SAML IdP");
  let ssoLocation = "";
  let metadataXml = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://idp");
    if (url.pathname === "/metadata") {
      res.writeHead(200, { "content-type": "application/xml" }).end(metadataXml);
      return;
    }
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname !== "/sso") {
      res.writeHead(404).end();
      return;
    }
    void idp
      .answer(`${ssoLocation}${url.search}`, idp.person)
      .then((answer) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(autoPost(answer));
      })
      .catch((err: unknown) => {
        res.writeHead(400, { "content-type": "text/plain" }).end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ssoLocation = `${origin}/sso`;
  const entity = (key: { keyPem: string; certPem: string }) =>
    samlify.IdentityProvider({
      entityID: entityId,
      privateKey: key.keyPem,
      signingCert: key.certPem,
      nameIDFormat: [PERSISTENT],
      singleSignOnService: [{ Binding: REDIRECT, Location: ssoLocation }],
      wantAuthnRequestsSigned: true,
      requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    });
  const ownIdp = entity(own);
  const foreignIdp = entity(foreign);
  metadataXml = ownIdp.getMetadata();

  const idp: TestSamlIdp = {
    entityId,
    metadataXml,
    metadataUrl: `${origin}/metadata`,
    person: { nameId: "nobody" },
    async answer(ssoUrl, person, opts = {}) {
      const sign = opts.sign ?? "assertion";
      const metadata = await spMetadata();
      const spFor = (wantAssertionsSigned: boolean, wantMessageSigned: boolean) =>
        samlify.ServiceProvider({
          metadata: metadata.replace(
            /WantAssertionsSigned="[^"]*"/,
            `WantAssertionsSigned="${wantAssertionsSigned}"`,
          ),
          wantMessageSigned,
        });
      // Our request, its signature checked (HTTP-Redirect binding: over the query as sent).
      const url = new URL(ssoUrl);
      const octetString = url.search
        .slice(1)
        .split("&")
        .filter((p) => !p.startsWith("Signature="))
        .join("&");
      const query = Object.fromEntries(url.searchParams);
      const { extract } = await ownIdp.parseLoginRequest(spFor(true, false), "redirect", {
        query,
        octetString,
      });
      const requestId = (extract as { request: { id: string } }).request.id;
      const signer = opts.foreignKey ? foreignIdp : ownIdp;
      const sp = spFor(sign !== "response", sign !== "assertion");
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const acs = (/AssertionConsumerService[^>]*Location="([^"]+)"/.exec(metadata) ?? [
        "",
        "",
      ])[1]!;
      const spEntityId = (/entityID="([^"]+)"/.exec(metadata) ?? ["", ""])[1]!;
      const values: Record<string, string> = {
        ID: `_${crypto.randomUUID()}`,
        AssertionID: `_${crypto.randomUUID()}`,
        Destination: acs,
        Audience: spEntityId,
        SubjectRecipient: acs,
        Issuer: entityId,
        IssueInstant: now.toISOString(),
        StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: person.nameIdFormat ?? PERSISTENT,
        NameID: person.nameId,
        InResponseTo: requestId,
        ...opts.overrides,
      };
      // The statements are XML of ours; every other value is text samlify escapes.
      const statements = {
        AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        AttributeStatement: attributeStatement(person.attributes ?? {}),
      };
      const subjectInResponseTo = opts.overrides?.SubjectInResponseTo ?? values.InResponseTo!;
      const template = samlify.SamlLib.defaultLoginResponseTemplate.context
        .replace(
          'Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"',
          `Recipient="{SubjectRecipient}" InResponseTo="${escapeXml(subjectInResponseTo)}"`,
        )
        .replace("{AuthnStatement}", statements.AuthnStatement)
        .replace("{AttributeStatement}", statements.AttributeStatement);
      const context = await signer.createLoginResponse(
        sp,
        { extract } as never,
        "post",
        {},
        {
          customTagReplacement: () => ({
            id: values.ID!,
            context: samlify.SamlLib.replaceTagsByValue(template, values),
          }),
        },
      );
      return {
        acs,
        SAMLResponse: (context as { context: string }).context,
        RelayState: query.RelayState ?? "",
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return idp;
}

function attributeStatement(attributes: Record<string, string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return "";
  const body = entries
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map(
            (v) =>
              `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`,
          )
          .join("")}</saml:Attribute>`,
    )
    .join("");
  return `<saml:AttributeStatement>${body}</saml:AttributeStatement>`;
}

function escapeXml(value: string): string {
  return value.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

/** The browser's post of an answer to our ACS, from `ip`; its redirect is not followed. */
export function postAnswer(
  answer: Pick<SamlAnswer, "acs" | "SAMLResponse" | "RelayState">,
  ip: string,
): Promise<Response> {
  return fetch(answer.acs, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
    body: new URLSearchParams({ SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState }),
    redirect: "manual",
  });
}

/** The page an IdP answers with: a form that posts the response to the ACS at once. */
function autoPost(answer: SamlAnswer): string {
  return `<!doctype html><html lang="en"><head><title>Signing in</title></head><body>
<form method="post" action="${escapeXml(answer.acs)}">
<input type="hidden" name="SAMLResponse" value="${escapeXml(answer.SAMLResponse)}">
<input type="hidden" name="RelayState" value="${escapeXml(answer.RelayState)}">
<noscript><button type="submit">Continue</button></noscript>
</form><script>document.forms[0].submit()</script></body></html>`;
}
