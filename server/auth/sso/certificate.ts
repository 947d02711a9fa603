// A self-signed X.509 certificate for an RSA key (node-forge builds and signs it, SHA-256): the
// vessel SAML metadata carries a public key in. Its contents are fixed by the caller, and RSA
// PKCS#1 v1.5 signatures are deterministic, so one key and one template make the same certificate.
import type { KeyObject } from "node:crypto";
import forge from "node-forge";

export type CertificateTemplate = {
  commonName: string;
  /** A DNS name of the subject's alternative names. */
  dnsName?: string;
  /** Hexadecimal serial number. */
  serial: string;
  notBefore: Date;
  notAfter: Date;
};

/** The certificate, PEM. */
export function selfSignedCertificate(privateKey: KeyObject, template: CertificateTemplate) {
  const key = forge.pki.privateKeyFromPem(
    privateKey.export({ format: "pem", type: "pkcs1" }).toString(),
  ) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = template.serial;
  cert.validity.notBefore = template.notBefore;
  cert.validity.notAfter = template.notAfter;
  const name = [{ name: "commonName", value: template.commonName }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "keyUsage", critical: true, digitalSignature: true },
    ...(template.dnsName
      ? [{ name: "subjectAltName", altNames: [{ type: 2, value: template.dnsName }] }]
      : []),
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}
