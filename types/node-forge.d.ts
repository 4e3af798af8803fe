// The part of node-forge (a dependency of @arcasdk/core, without bundled types) that the ARCA
// emulator and its test certificates use: building a certificate and reading a CMS message.
declare module "node-forge" {
  export interface Asn1 {
    tagClass: number;
    type: number;
    constructed: boolean;
    value: string | Asn1[];
  }
  interface Certificate {
    publicKey: unknown;
    serialNumber: string;
    validity: { notBefore: Date; notAfter: Date };
    setSubject(attrs: { name?: string; type?: string; value: string }[]): void;
    setIssuer(attrs: { name?: string; type?: string; value: string }[]): void;
    sign(key: unknown, md: unknown): void;
  }
  interface SignedData {
    certificates: Certificate[];
    rawCapture: { content?: Asn1; authenticatedAttributes?: Asn1[]; signature?: string };
  }
  const forge: {
    pki: {
      createCertificate(): Certificate;
      publicKeyFromPem(pem: string): unknown;
      privateKeyFromPem(pem: string): unknown;
      certificateToPem(cert: Certificate): string;
    };
    md: { sha256: { create(): unknown } };
    asn1: {
      Class: { UNIVERSAL: number };
      Type: { SET: number; OCTETSTRING: number; OID: number };
      fromDer(bytes: string): Asn1;
      toDer(obj: Asn1): { getBytes(): string };
      create(tagClass: number, type: number, constructed: boolean, value: Asn1[] | string): Asn1;
      derToOid(bytes: string): string;
    };
    pkcs7: { messageFromAsn1(obj: Asn1): SignedData };
    util: { decode64(s: string): string };
  };
  export default forge;
}
