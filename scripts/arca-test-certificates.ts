// Certificates like the ones ARCA issues (subject serialNumber "CUIT <11 digits>"), self-signed,
// for the local demo's operator and the tests: the ARCA emulator trusts the one registered for
// each CUIT, as ARCA trusts the certificate it issued for it.
import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";

export interface TestCertificate {
  certPem: string;
  keyPem: string;
}

export function makeArcaCertificate(cuit: string, opts: { alias?: string; notBefore?: Date; notAfter?: Date } = {}): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = Date.now().toString(16);
  cert.validity.notBefore = opts.notBefore ?? new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + 2 * 365 * 86_400_000);
  const subject = [
    { name: "countryName", value: "AR" },
    { name: "organizationName", value: "Enchufa emulador" },
    { name: "commonName", value: opts.alias ?? "enchufa" },
    { type: "2.5.4.5", value: `CUIT ${cuit}` },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: privateKey };
}
