// "Probar conexión": the steps an invoice will need, tried in order until one fails, each failure
// said in Spanish with what to do — the certificate (readable, current, of this CUIT, matching its
// key), WSAA's login, FEDummy, and the point of sale among those ARCA enabled for web services.
import { ArcaUnavailableError } from "../../domain/arca-port";
import { CertificateError, keyMatchesCertificate, readCertificate } from "./certificate";
import { ArcaLoginError, type ArcaSoapClient } from "./client";

export type TestStep = "certificate" | "login" | "health" | "pointOfSale";
export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  steps: { step: TestStep; ok: boolean; message: string }[];
}

const formatCuit = (c: string) => `${c.slice(0, 2)}-${c.slice(2, 10)}-${c.slice(10)}`;

/** Whether a certificate and key can be used for this CUIT now: null when they can, else why not. */
export function certificateProblem(certPem: string, keyPem: string, cuit: string, now: Date): string | null {
  try {
    const info = readCertificate(certPem);
    if (info.notAfter.getTime() < now.getTime()) return `El certificado venció el ${info.notAfter.toLocaleDateString("es-AR", { timeZone: "America/Argentina/Buenos_Aires" })}: generá uno nuevo en ARCA y subilo.`;
    if (info.cuit !== cuit) return info.cuit ? `El certificado es del CUIT ${formatCuit(info.cuit)}, no del de la empresa (${formatCuit(cuit)}).` : "El certificado no dice de qué CUIT es: subí el que ARCA emitió para la empresa.";
    if (!keyMatchesCertificate(certPem, keyPem)) return "La clave privada no corresponde al certificado: subí la clave con la que generaste el pedido del certificado (CSR).";
    return null;
  } catch (error) {
    if (error instanceof CertificateError) return error.message;
    throw error;
  }
}

export async function testConnection(input: { client: ArcaSoapClient; certPem: string; keyPem: string; cuit: string; pointOfSale: number; now: Date }): Promise<ConnectionTestResult> {
  const steps: ConnectionTestResult["steps"] = [];
  const fail = (step: TestStep, message: string): ConnectionTestResult => {
    steps.push({ step, ok: false, message });
    return { ok: false, message, steps };
  };
  const problem = certificateProblem(input.certPem, input.keyPem, input.cuit, input.now);
  if (problem) return fail("certificate", problem);
  steps.push({ step: "certificate", ok: true, message: "El certificado es de la empresa, está vigente y corresponde a la clave." });
  const down = (error: unknown) => {
    if (error instanceof ArcaLoginError) return error.message;
    if (error instanceof ArcaUnavailableError) return `ARCA no responde (${error.message.replace(/\.$/, "")}). Puede estar caído: probá de nuevo en unos minutos.`;
    throw error;
  };
  try {
    await input.client.login();
  } catch (error) {
    return fail("login", down(error));
  }
  steps.push({ step: "login", ok: true, message: "ARCA aceptó el certificado (WSAA)." });
  try {
    const health = await input.client.health();
    if (!health.appServer || !health.dbServer || !health.authServer) return fail("health", "ARCA informa problemas en sus servidores de factura electrónica: probá de nuevo más tarde.");
  } catch (error) {
    return fail("health", down(error));
  }
  steps.push({ step: "health", ok: true, message: "El servicio de factura electrónica (WSFEv1) responde." });
  let enabled: number[];
  try {
    enabled = await input.client.pointsOfSale();
  } catch (error) {
    return fail("pointOfSale", down(error));
  }
  if (!enabled.includes(input.pointOfSale)) {
    const list = enabled.length ? ` Los habilitados son: ${enabled.join(", ")}.` : " No hay ninguno habilitado.";
    return fail("pointOfSale", `El punto de venta ${input.pointOfSale} no está habilitado para factura electrónica por web services en ARCA (creálo en «Administración de puntos de venta y domicilios» como «RECE para aplicativo y web services»).${list}`);
  }
  steps.push({ step: "pointOfSale", ok: true, message: `El punto de venta ${input.pointOfSale} está habilitado para web services.` });
  return { ok: true, message: "La conexión con ARCA funciona: ya se pueden emitir comprobantes.", steps };
}
