// ARCA's words for what it refused, said so an operator understands them. ARCA already answers in
// Spanish, but in its manual's terms ("CbteDesde", "ImpTotConc"); the codes that come up in
// practice get a plain sentence, and any other keeps ARCA's own text after its code.
import type { ArcaMessage } from "../../domain/arca-port";

const PLAIN: Record<number, string> = {
  10015: "El documento del comprador no es válido para este tipo de comprobante (Factura A necesita un CUIT válido; Factura B, un documento o consumidor final).",
  10016: "El número no es el siguiente que ARCA espera para este punto de venta y tipo de comprobante (o la fecha es anterior a la del último autorizado).",
  10048: "Los importes no suman el total: el total tiene que ser neto gravado + no gravado + exento + IVA + tributos.",
  10018: "Falta la fecha del servicio (desde, hasta y vencimiento del pago) que un comprobante de servicios lleva.",
  10023: "El IVA informado no coincide con la suma de las alícuotas.",
  10040: "El punto de venta no está habilitado para factura electrónica por web services.",
  10242: "Falta la condición frente al IVA del receptor.",
  600: "ARCA no validó las credenciales (token o firma vencidos o de otro CUIT).",
  601: "El CUIT del pedido no es el del certificado.",
  602: "ARCA no tiene resultados para la consulta.",
};

/** An ARCA message with a sentence an operator understands (the original code kept). */
export function plainMessage(code: number, arcaText: string): ArcaMessage {
  const plain = PLAIN[code];
  return { code, message: plain ?? `${arcaText.trim() || "ARCA rechazó el pedido"} (código ${code})` };
}

/**
 * WSAA's refusals of a login (its SOAP fault codes, "ns1:cms.cert.expired" and the like) in
 * Spanish. Unknown codes say ARCA's own text.
 */
export function loginRefusalMessage(code: string, arcaText: string): string {
  const local = code.replace(/^.*:/, "");
  if (local === "cms.cert.expired") return "El certificado está vencido: generá uno nuevo en ARCA (Administración de certificados digitales) y subilo.";
  if (local === "cms.cert.untrusted" || local === "cms.cert.invalid") return "ARCA no reconoce el certificado: tiene que estar emitido por ARCA para el entorno elegido (homologación o producción).";
  if (local === "cms.sign.invalid" || local === "cms.bad" || local === "cms.bad.base64") return "La firma no es válida: la clave privada no corresponde al certificado, o el certificado no es el registrado en ARCA para este CUIT.";
  if (local === "coe.notAuthorized") return "El certificado no está autorizado para factura electrónica (wsfe): asocialo al servicio en ARCA (Administrador de relaciones de clave fiscal).";
  if (local === "coe.alreadyAuthenticated") return "ARCA ya entregó un acceso vigente para este certificado y todavía no venció: probá de nuevo más tarde.";
  if (local === "xml.source.invalid" || local === "cms.cert.notFound") return "El certificado no corresponde a este CUIT.";
  return `ARCA rechazó el ingreso: ${arcaText || local || "sin detalle"}.`;
}
