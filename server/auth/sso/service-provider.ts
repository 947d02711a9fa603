// This service as a SAML 2.0 service provider, as GoTrue presents itself: its entity id is its
// metadata's URL (`…/sso/saml/metadata`), its assertion consumer service `…/sso/saml/acs`, and
// its certificate carries the public half of GOTRUE_SAML_PRIVATE_KEY, self-signed from GoTrue's
// fixed template so that it is the same on every instance and every start.
import type { SamlConfig } from "../../config.ts";

/** GoTrue's default NameID format of its requests (a provider may name another). */
export const PERSISTENT_NAME_ID = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
const EMAIL_NAME_ID = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export type ServiceProvider = {
  entityId: string;
  acsUrl: string;
  /** The private key, PEM (PKCS#8): signs the authentication requests. */
  privateKeyPem: string;
  /** The certificate, PEM. */
  certificatePem: string;
  /** The metadata an identity provider is given (`download`: valid for five years). */
  metadata: (download: boolean) => string;
};

/**
 * Made once, with SAML on. node-saml and node-forge (through certificate.ts) are loaded here, not
 * at every start: they are ≈ 0.15 s of a start's module loading, for a feature off by default.
 */
export async function serviceProvider(config: SamlConfig): Promise<ServiceProvider> {
  const entityId = `${config.externalUrl}/sso/saml/metadata`;
  const acsUrl = `${config.externalUrl}/sso/saml/acs`;
  const privateKeyPem = config.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const [{ generateServiceProviderMetadata }, certificatePem] = await Promise.all([
    import("@node-saml/node-saml"),
    gotrueCertificate(config, new URL(entityId).hostname),
  ]);
  return {
    entityId,
    acsUrl,
    privateKeyPem,
    certificatePem,
    metadata(download) {
      const xml = generateServiceProviderMetadata({
        issuer: entityId,
        callbackUrl: acsUrl,
        identifierFormat: PERSISTENT_NAME_ID,
        publicCerts: certificatePem,
        privateKey: privateKeyPem,
        signMetadata: false,
        wantAssertionsSigned: true,
      });
      return withMetadataDetails(xml, download);
    },
  };
}

/**
 * GoTrue's template: serial 0, valid from 1970 for 200 years, `_samlsp.<host>` as its name, for
 * signatures only: the same on every instance and every start.
 */
async function gotrueCertificate(config: SamlConfig, host: string): Promise<string> {
  const { selfSignedCertificate } = await import("./certificate.ts");
  const notAfter = new Date(0);
  notAfter.setUTCFullYear(2170);
  return selfSignedCertificate(config.privateKey, {
    commonName: `SAML 2.0 Certificate for ${host}`,
    dnsName: `_samlsp.${host}`,
    serial: "00",
    notBefore: new Date(0),
    notAfter,
  });
}

/**
 * What GoTrue's metadata says beyond node-saml's: both NameID formats it accepts, and for a
 * download a validity of five years.
 */
function withMetadataDetails(xml: string, download: boolean): string {
  let out = xml.replace(
    /<NameIDFormat>[^<]*<\/NameIDFormat>/,
    `<NameIDFormat>${EMAIL_NAME_ID}</NameIDFormat><NameIDFormat>${PERSISTENT_NAME_ID}</NameIDFormat>`,
  );
  if (download) {
    const until = new Date();
    until.setUTCFullYear(until.getUTCFullYear() + 5);
    out = out.replace(
      "<EntityDescriptor ",
      `<EntityDescriptor validUntil="${until.toISOString()}" `,
    );
  }
  return out;
}
