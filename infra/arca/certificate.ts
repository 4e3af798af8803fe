// The operator's ARCA certificate and key: what the settings screen shows of them (the CUIT the
// certificate was issued to, its expiry) and the signed login ticket (CMS) WSAA takes. Signing
// is @arcasdk/core's (node-forge underneath, SHA-256 with the certificate attached, as WSAA asks).
import { X509Certificate, createPrivateKey } from "node:crypto";
import { Cryptography } from "@arcasdk/core/lib/infrastructure/utils/crypt-data.js";
import { escapeXml } from "./xml";

export interface CertificateInfo {
  /** The CUIT in the subject's serialNumber ("CUIT 20123456789"), or null when it carries none. */
  cuit: string | null;
  /** The subject's common name (the alias given in ARCA). */
  commonName: string | null;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 fingerprint (hex, with colons), which names a certificate without showing it. */
  fingerprint: string;
}

export class CertificateError extends Error {
  override name = "CertificateError";
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** Reads a PEM certificate; a CertificateError with a Spanish message when it is not one. */
export function readCertificate(pem: string): CertificateInfo {
  const block = PEM_CERT.exec(pem)?.[0];
  if (!block) throw new CertificateError("El archivo no es un certificado PEM (tiene que empezar con «-----BEGIN CERTIFICATE-----»).");
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(block);
  } catch {
    throw new CertificateError("El certificado no se puede leer: subí el .crt o .pem que entregó ARCA.");
  }
  const field = (name: string) =>
    cert.subject
      .split("\n")
      .map((line) => line.split("="))
      .find(([key]) => key === name)?.[1]
      ?.trim() ?? null;
  const serial = field("serialNumber");
  const cuit = serial ? (/(\d{11})/.exec(serial.replace(/-/g, ""))?.[1] ?? null) : null;
  return { cuit, commonName: field("CN"), notBefore: new Date(cert.validFrom), notAfter: new Date(cert.validTo), fingerprint: cert.fingerprint256 };
}

/** Whether the PEM private key is the one of the certificate; a CertificateError when the key cannot be read. */
export function keyMatchesCertificate(certPem: string, keyPem: string): boolean {
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new CertificateError("La clave privada no se puede leer: subí el archivo .key en formato PEM, sin contraseña.");
  }
  const block = PEM_CERT.exec(certPem)?.[0];
  if (!block) throw new CertificateError("El archivo no es un certificado PEM (tiene que empezar con «-----BEGIN CERTIFICATE-----»).");
  return new X509Certificate(block).checkPrivateKey(key);
}

/** ARCA's time format for the login ticket: ISO 8601 with Argentina's offset (no summer time). */
function arTime(d: Date): string {
  return new Date(d.getTime() - 3 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "-03:00");
}

/** The login ticket request (TRA) for a service, valid from a minute ago for ten minutes (clocks drift). */
export function loginTicketRequest(service: string, now: Date): string {
  const uniqueId = Math.floor(now.getTime() / 1000);
  return (
    `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header><uniqueId>${uniqueId}</uniqueId>` +
    `<generationTime>${arTime(new Date(now.getTime() - 60_000))}</generationTime><expirationTime>${arTime(new Date(now.getTime() + 10 * 60_000))}</expirationTime>` +
    `</header><service>${escapeXml(service)}</service></loginTicketRequest>`
  );
}

/** The TRA signed as WSAA's LoginCms takes it: CMS SignedData with the content and the certificate, base64. */
export function signLoginTicket(tra: string, certPem: string, keyPem: string): string {
  try {
    return new Cryptography(certPem, keyPem).sign(tra);
  } catch (error) {
    throw new CertificateError("No pudimos firmar el pedido de acceso con el certificado y la clave guardados.", { cause: error });
  }
}
