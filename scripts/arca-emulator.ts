// ARCA's electronic-invoice web services, emulated for local mode and the tests — dev-only, never
// part of the production image. It speaks the same SOAP as ARCA for what infra/arca/client.ts
// calls, mounted beside the payments emulator (same process and port):
//
//   WSAA     POST {base}/arca/wsaa   LoginCms: the CMS is verified against the certificate
//                                    registered for the CUIT of its signer; answers token + sign (12 h),
//                                    and, as WSAA does, refuses another while that one is valid
//                                    (coe.alreadyAuthenticated, per certificate and service)
//   WSFEv1   POST {base}/arca/wsfe   FEDummy · FEParamGetPtosVenta · FECompUltimoAutorizado ·
//                                    FECAESolicitar (numbers strictly last + 1 per CUIT, point of
//                                    sale and type; 14-digit CAE due in 10 days; ARCA's codes for a
//                                    wrong number 10016, totals 10048, receiver's document 10015…) ·
//                                    FECompConsultar (an authorised voucher; 602 for none)
//   Control  POST {base}/_emulator/arca/mode { mode: up|down|slow, delayMs? } (down: HTTP 503)
//            POST {base}/_emulator/arca/taxpayers { cuit, certificate, pointsOfSale? }
//            knowVouchers(records): what ARCA authorised before this start (local mode's seed)
//            GET  {base}/_emulator/arca/state (JSON: taxpayers, last numbers, vouchers, calls)
//   Panel    the payments emulator's panel (/_emulator) has a section with the switch.
import { createHash, createVerify, randomBytes, randomInt, X509Certificate } from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import forge, { type Asn1 } from "node-forge";
import { isValidCuit } from "../domain/cuit";
import { element, elements, escapeXml, soapEnvelope, text, toXml } from "../infra/arca/xml";

export type ArcaMode = "up" | "down" | "slow";

interface Taxpayer {
  cuit: string;
  certPem: string;
  fingerprint: string;
  pointsOfSale: number[];
}

export interface ArcaVoucherRecord {
  cuit: string;
  pointOfSale: number;
  type: number;
  number: number;
  cae: string;
  caeDueDate: string;
  total: string;
  at: string;
  /** As FECAESolicitar sent them, for FECompConsultar. */
  detail: { concept: string; docType: number; docNumber: string; issueDate: string; totConc: string; net: string; exempt: string; trib: string; vat: string };
}

const TICKET_MS = 12 * 3_600_000;
const FEV1 = "http://ar.gov.afip.dif.FEV1/";

class Fault extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const cents = (value: string | undefined) => Math.round(Number(value ?? "0") * 100);
const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, "");

/** The signed content and the signer of a CMS, verified against the certificate registered for the signer's CUIT. */
function verifyLogin(cmsBase64: string, taxpayers: Map<string, Taxpayer>, now: Date): { cuit: string; tra: string } {
  let p7;
  try {
    p7 = forge.pkcs7.messageFromAsn1(forge.asn1.fromDer(forge.util.decode64(cmsBase64)));
  } catch {
    throw new Fault("ns1:cms.bad", "CMS no es valido");
  }
  const raw = p7.rawCapture;
  const signer = p7.certificates[0];
  if (!signer || !raw.signature || !raw.authenticatedAttributes || !raw.content) throw new Fault("ns1:cms.bad", "CMS sin firmante");
  const signerPem = forge.pki.certificateToPem(signer);
  const signerCert = new X509Certificate(signerPem);
  const cuit = /CUIT (\d{11})/.exec(signerCert.subject)?.[1];
  const known = cuit ? taxpayers.get(cuit) : undefined;
  if (!cuit || !known || known.fingerprint !== signerCert.fingerprint256) throw new Fault("ns1:cms.cert.untrusted", "Certificado no emitido por AC de confianza");
  if (Date.parse(signerCert.validTo) < now.getTime() || Date.parse(signerCert.validFrom) > now.getTime()) throw new Fault("ns1:cms.cert.expired", "Certificado expirado");
  // The signature covers the DER of the signed attributes (as a SET); their message digest, the content.
  const attributes = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, raw.authenticatedAttributes);
  const signedBytes = Buffer.from(forge.asn1.toDer(attributes).getBytes(), "binary");
  const signatureOk = createVerify("sha256").update(signedBytes).verify(known.certPem, Buffer.from(raw.signature, "binary"));
  const content = octets(raw.content);
  const digest = createHash("sha256").update(content).digest();
  const digestOk = raw.authenticatedAttributes.some((attr) => {
    const [oid, set] = attr.value as Asn1[];
    return forge.asn1.derToOid(oid.value as string) === "1.2.840.113549.1.9.4" && Buffer.from(((set.value as Asn1[])[0].value as string), "binary").equals(digest);
  });
  if (!signatureOk || !digestOk) throw new Fault("ns1:cms.sign.invalid", "Firma inválida o algoritmo no soportado");
  return { cuit, tra: content.toString("utf8") };
}

/** The bytes of the CMS's content ([0] EXPLICIT OCTET STRING, possibly constructed in pieces). */
function octets(node: Asn1): Buffer {
  if (typeof node.value === "string") return Buffer.from(node.value, "binary");
  return Buffer.concat(node.value.map(octets));
}

export function createArcaEmulator(opts: { now?: () => Date } = {}) {
  const now = opts.now ?? (() => new Date());
  const taxpayers = new Map<string, Taxpayer>();
  const tickets = new Map<string, { cuit: string; sign: string; expiresAt: number }>();
  /** The expiry of the last ticket given per certificate fingerprint and service: none other before it. */
  const issued = new Map<string, number>();
  const last = new Map<string, number>();
  const vouchers: ArcaVoucherRecord[] = [];
  const calls: Record<string, number> = {};
  let mode: ArcaMode = "up";
  let slowMs = 30_000;

  function registerTaxpayer(cuit: string, certPem: string, pointsOfSale: number[] = [1, 2, 3]) {
    const fingerprint = new X509Certificate(certPem).fingerprint256;
    taxpayers.set(cuit, { cuit, certPem, fingerprint, pointsOfSale });
  }

  function loginCms(body: string): string {
    const cms = text(body, "in0") ?? "";
    const { cuit, tra } = verifyLogin(cms, taxpayers, now());
    if (text(tra, "service") !== "wsfe") throw new Fault("ns1:coe.notAuthorized", "Computador no autorizado a acceder al servicio");
    const expiration = Date.parse(text(tra, "expirationTime") ?? "");
    if (!(expiration > now().getTime())) throw new Fault("ns1:xml.expirationTime.invalid", "El TRA expiró");
    const held = `${taxpayers.get(cuit)!.fingerprint}|wsfe`;
    if ((issued.get(held) ?? 0) > now().getTime()) throw new Fault("ns1:coe.alreadyAuthenticated", "El CEE ya posee un TA valido para el acceso al WSN solicitado");
    const token = randomBytes(48).toString("base64");
    const sign = randomBytes(24).toString("base64");
    const expiresAt = now().getTime() + TICKET_MS;
    tickets.set(token, { cuit, sign, expiresAt });
    issued.set(held, expiresAt);
    const ticket =
      `<?xml version="1.0" encoding="UTF-8"?><loginTicketResponse version="1.0"><header><source>CN=wsaahomo, O=AFIP, C=AR</source>` +
      `<destination>SERIALNUMBER=CUIT ${cuit}</destination><uniqueId>${randomInt(1e9)}</uniqueId><generationTime>${now().toISOString()}</generationTime>` +
      `<expirationTime>${new Date(expiresAt).toISOString()}</expirationTime></header><credentials><token>${token}</token><sign>${sign}</sign></credentials></loginTicketResponse>`;
    return soapEnvelope(`<loginCmsResponse xmlns="http://wsaa.view.sua.dvadac.desein.afip.gov"><loginCmsReturn>${escapeXml(ticket)}</loginCmsReturn></loginCmsResponse>`);
  }

  /** The taxpayer an Auth block is good for, or ARCA's error 600. */
  function authenticate(body: string): Taxpayer | { error: string } {
    const auth = element(body, "Auth") ?? "";
    const ticket = tickets.get(text(auth, "Token") ?? "");
    if (!ticket || ticket.sign !== text(auth, "Sign") || ticket.expiresAt < now().getTime()) return { error: toXml({ Errors: { Err: [{ Code: 600, Msg: "ValidacionDeToken: No validaron las credenciales de token y firma." }] } }) };
    if (ticket.cuit !== text(auth, "Cuit")) return { error: toXml({ Errors: { Err: [{ Code: 601, Msg: "CUIT representada no incluida en Token" }] } }) };
    return taxpayers.get(ticket.cuit)!;
  }

  const wrap = (operation: string, inner: string) => soapEnvelope(`<${operation}Response xmlns="${FEV1}"><${operation}Result>${inner}</${operation}Result></${operation}Response>`);

  function caeSolicitar(payer: Taxpayer, body: string): string {
    const head = element(body, "FeCabReq") ?? "";
    const det = element(body, "FECAEDetRequest") ?? "";
    const pointOfSale = Number(text(head, "PtoVta"));
    const type = Number(text(head, "CbteTipo"));
    const number = Number(text(det, "CbteDesde"));
    const key = `${payer.cuit}|${pointOfSale}|${type}`;
    const obs: { Code: number; Msg: string }[] = [];
    if (!payer.pointsOfSale.includes(pointOfSale)) obs.push({ Code: 10040, Msg: "El punto de venta no se encuentra habilitado a usar el presente WS." });
    if (number !== (last.get(key) ?? 0) + 1 || text(det, "CbteHasta") !== text(det, "CbteDesde")) {
      obs.push({ Code: 10016, Msg: "El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado." });
    }
    const [total, conc, net, exempt, trib, vat] = ["ImpTotal", "ImpTotConc", "ImpNeto", "ImpOpEx", "ImpTrib", "ImpIVA"].map((k) => cents(text(det, k)));
    if (total !== conc + net + exempt + trib + vat) obs.push({ Code: 10048, Msg: "El campo 'Importe Total' ImpTotal, debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA." });
    const rates = elements(element(det, "Iva") ?? "", "AlicIva");
    if (rates.reduce((sum, r) => sum + cents(text(r, "Importe")), 0) !== vat) obs.push({ Code: 10023, Msg: "La suma de los campos Importe en AlicIva debe ser igual al valor ingresado en ImpIVA." });
    const docType = Number(text(det, "DocTipo"));
    const doc = text(det, "DocNro") ?? "";
    if ((type === 1 || type === 3) && (docType !== 80 || !isValidCuit(doc))) obs.push({ Code: 10015, Msg: "Factura A: DocTipo debe ser 80 (CUIT) y DocNro un CUIT valido." });
    if (docType === 80 && !isValidCuit(doc)) obs.push({ Code: 10015, Msg: "DocNro no es un CUIT valido." });
    if (Number(text(det, "Concepto")) !== 1 && !(text(det, "FchServDesde") && text(det, "FchServHasta") && text(det, "FchVtoPago"))) {
      obs.push({ Code: 10018, Msg: "Si informa Concepto 2 o 3 debe informar FchServDesde, FchServHasta y FchVtoPago." });
    }
    if (!text(det, "CondicionIVAReceptorId")) obs.push({ Code: 10242, Msg: "El campo Condicion Frente al IVA del receptor es obligatorio." });
    const common = { Concepto: text(det, "Concepto"), DocTipo: docType, DocNro: doc, CbteDesde: number, CbteHasta: number, CbteFch: text(det, "CbteFch") };
    const cab = { Cuit: payer.cuit, PtoVta: pointOfSale, CbteTipo: type, FchProceso: ymd(now()), CantReg: 1, Resultado: obs.length ? "R" : "A", Reproceso: "N" };
    if (obs.length) return wrap("FECAESolicitar", toXml({ FeCabResp: cab, FeDetResp: { FECAEDetResponse: { ...common, Resultado: "R", Observaciones: { Obs: obs }, CAE: "", CAEFchVto: "" } } }));
    last.set(key, number);
    const cae = `7${String(randomInt(1e6)).padStart(6, "0")}${String(randomInt(1e7)).padStart(7, "0")}`;
    const caeDueDate = ymd(new Date(now().getTime() + 10 * 86_400_000));
    const detail = { concept: text(det, "Concepto") ?? "", docType, docNumber: doc, issueDate: text(det, "CbteFch") ?? "", totConc: text(det, "ImpTotConc") ?? "0", net: text(det, "ImpNeto") ?? "0", exempt: text(det, "ImpOpEx") ?? "0", trib: text(det, "ImpTrib") ?? "0", vat: text(det, "ImpIVA") ?? "0" };
    vouchers.push({ cuit: payer.cuit, pointOfSale, type, number, cae, caeDueDate, total: text(det, "ImpTotal") ?? "", at: now().toISOString(), detail });
    return wrap("FECAESolicitar", toXml({ FeCabResp: cab, FeDetResp: { FECAEDetResponse: { ...common, Resultado: "A", CAE: cae, CAEFchVto: caeDueDate } } }));
  }

  /** FECompConsultar: the voucher as ARCA keeps it, or error 602 when it has none with that number. */
  function compConsultar(payer: Taxpayer, body: string): string {
    const req = element(body, "FeCompConsReq") ?? "";
    const [pointOfSale, type, number] = ["PtoVta", "CbteTipo", "CbteNro"].map((k) => Number(text(req, k)));
    const v = vouchers.find((x) => x.cuit === payer.cuit && x.pointOfSale === pointOfSale && x.type === type && x.number === number);
    if (!v) return wrap("FECompConsultar", toXml({ Errors: { Err: [{ Code: 602, Msg: "No existen datos en nuestros registros para los parametros ingresados." }] } }));
    const d = v.detail;
    return wrap(
      "FECompConsultar",
      toXml({
        ResultGet: {
          Concepto: d.concept, DocTipo: d.docType, DocNro: d.docNumber, CbteDesde: number, CbteHasta: number, CbteFch: d.issueDate,
          ImpTotal: v.total, ImpTotConc: d.totConc, ImpNeto: d.net, ImpOpEx: d.exempt, ImpTrib: d.trib, ImpIVA: d.vat, MonId: "PES", MonCotiz: 1,
          Resultado: "A", CodAutorizacion: v.cae, EmisionTipo: "CAE", FchVto: v.caeDueDate, FchProceso: v.at.slice(0, 10).replace(/-/g, ""), PtoVta: pointOfSale, CbteTipo: type,
        },
      }),
    );
  }

  function wsfe(body: string): string {
    const operation = ["FEDummy", "FEParamGetPtosVenta", "FECompUltimoAutorizado", "FECAESolicitar", "FECompConsultar"].find((op) => element(body, op) !== undefined);
    if (!operation) throw new Fault("soap:Client", "Operación no soportada por el emulador");
    calls[operation] = (calls[operation] ?? 0) + 1;
    if (operation === "FEDummy") return wrap(operation, toXml({ AppServer: "OK", DbServer: "OK", AuthServer: "OK" }));
    const payer = authenticate(body);
    if ("error" in payer) return wrap(operation, payer.error);
    if (operation === "FEParamGetPtosVenta") {
      if (!payer.pointsOfSale.length) return wrap(operation, toXml({ Errors: { Err: [{ Code: 602, Msg: "Sin Resultados: - Metodo FEParamGetPtosVenta" }] } }));
      return wrap(operation, toXml({ ResultGet: { PtoVenta: payer.pointsOfSale.map((n) => ({ Nro: n, EmisionTipo: "CAE", Bloqueado: "N", FchBaja: "NULL" })) } }));
    }
    if (operation === "FECompUltimoAutorizado") {
      const pointOfSale = Number(text(body, "PtoVta"));
      const type = Number(text(body, "CbteTipo"));
      return wrap(operation, toXml({ PtoVta: pointOfSale, CbteTipo: type, CbteNro: last.get(`${payer.cuit}|${pointOfSale}|${type}`) ?? 0 }));
    }
    if (operation === "FECompConsultar") return compConsultar(payer, body);
    return caeSolicitar(payer, body);
  }

  /** One SOAP request to WSAA or WSFE, answered as ARCA would (or as ARCA down or slow would). */
  async function respond(service: "wsaa" | "wsfe", body: string): Promise<{ status: number; contentType: string; body: string }> {
    if (mode === "down") return { status: 503, contentType: "text/plain", body: "Servicio no disponible (emulador de ARCA apagado)" };
    if (mode === "slow") await new Promise((r) => setTimeout(r, slowMs));
    try {
      if (service === "wsaa") calls.LoginCms = (calls.LoginCms ?? 0) + 1;
      return { status: 200, contentType: "text/xml", body: service === "wsaa" ? loginCms(body) : wsfe(body) };
    } catch (error) {
      const fault = error instanceof Fault ? error : new Fault("soap:Server", "Error interno del emulador");
      return { status: 500, contentType: "text/xml", body: soapEnvelope(`<soap:Fault><faultcode>${escapeXml(fault.code)}</faultcode><faultstring>${escapeXml(fault.message)}</faultstring></soap:Fault>`) };
    }
  }

  const router: Router = express.Router();
  router.use(express.text({ type: () => true, limit: "256kb" }));
  const serve = (service: "wsaa" | "wsfe") => async (req: Request, res: Response) => {
    const answer = await respond(service, typeof req.body === "string" ? req.body : "");
    res.status(answer.status).type(answer.contentType).send(answer.body);
  };
  router.post("/wsaa", serve("wsaa"));
  router.post("/wsfe", serve("wsfe"));

  /**
   * Vouchers ARCA authorised before this emulator started (it forgets on every start, ARCA does
   * not): each series' last number becomes the highest of them, so the next voucher asked for
   * is the one after what the database already holds.
   */
  function knowVouchers(records: readonly ArcaVoucherRecord[]) {
    for (const v of records) {
      const key = `${v.cuit}|${v.pointOfSale}|${v.type}`;
      last.set(key, Math.max(last.get(key) ?? 0, v.number));
      vouchers.push(v);
    }
  }

  return {
    router,
    respond,
    registerTaxpayer,
    knowVouchers,
    setMode(next: ArcaMode, delayMs?: number) {
      mode = next;
      if (delayMs !== undefined) slowMs = delayMs;
    },
    get mode() {
      return mode;
    },
    state: () => ({
      mode,
      slowMs,
      taxpayers: [...taxpayers.values()].map(({ cuit, fingerprint, pointsOfSale }) => ({ cuit, fingerprint, pointsOfSale })),
      lastNumbers: Object.fromEntries(last),
      vouchers,
      calls,
    }),
  };
}

export type ArcaEmulator = ReturnType<typeof createArcaEmulator>;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The emulator's page (/_emulator/arca): the up/down/slow switch and what it authorised; plain forms, no JavaScript. */
function arcaPanel(arca: ArcaEmulator, message: string): string {
  const s = arca.state();
  const button = (label: string, mode: ArcaMode) =>
    `<form method="post" action="/_emulator/arca/mode" style="display:inline"><input type="hidden" name="mode" value="${mode}"><button${s.mode === mode ? " disabled" : ""}>${esc(label)}</button></form>`;
  const rows = s.vouchers
    .slice(-50)
    .reverse()
    .map((v) => `<tr><td>${esc(v.cuit)}</td><td>${v.pointOfSale}</td><td>${v.type}</td><td>${v.number}</td><td>${esc(v.total)}</td><td>${esc(v.cae)}</td><td>${esc(v.caeDueDate)}</td></tr>`)
    .join("");
  const payers = s.taxpayers.map((t) => `<li>CUIT ${esc(t.cuit)}: puntos de venta ${t.pointsOfSale.join(", ")}</li>`).join("");
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Emulador de ARCA</title></head><body><main>
<h1>Emulador de ARCA <small>(local)</small></h1>${message ? `<p role="status">${esc(message)}</p>` : ""}
<p>Estado: <strong>${s.mode === "up" ? "en línea" : s.mode === "down" ? "caído" : `lento (${s.slowMs} ms)`}</strong></p>
<p>${button("En línea", "up")} ${button("Caído", "down")} ${button("Lento", "slow")}</p>
<h2>Contribuyentes</h2><ul>${payers || "<li>Ninguno</li>"}</ul>
<h2>Comprobantes autorizados</h2><table><thead><tr><th>CUIT</th><th>Punto de venta</th><th>Tipo</th><th>Número</th><th>Total</th><th>CAE</th><th>Vto. CAE</th></tr></thead><tbody>${rows}</tbody></table>
<p><a href="/_emulator">Volver al emulador de pagos</a></p></main></body></html>`;
}

/** The emulator's controls, for scripts (JSON) and its page (forms, answered with a redirect back). */
export function mountArcaControls(app: express.Express, arca: ArcaEmulator): void {
  const body = [express.json({ limit: "64kb" }), express.urlencoded({ extended: false, limit: "64kb" })];
  const form = (req: Request) => (req.get("content-type") ?? "").includes("form-urlencoded");
  app.post("/_emulator/arca/mode", ...body, (req: Request, res: Response) => {
    const { mode, delayMs } = req.body as { mode?: string; delayMs?: number | string };
    if (mode !== "up" && mode !== "down" && mode !== "slow") return res.status(400).json({ message: "mode: up, down o slow." });
    arca.setMode(mode, delayMs === undefined ? undefined : Number(delayMs));
    if (form(req)) return res.redirect(303, `/_emulator/arca?msg=${encodeURIComponent(`ARCA: ${mode}`)}`);
    res.json(arca.state());
  });
  app.post("/_emulator/arca/taxpayers", ...body, (req: Request, res: Response) => {
    const { cuit, certificate, pointsOfSale } = req.body as { cuit?: string; certificate?: string; pointsOfSale?: number[] };
    if (!cuit || !/^\d{11}$/.test(cuit) || !certificate) return res.status(400).json({ message: "cuit (11 dígitos) y certificate (PEM) son obligatorios." });
    try {
      arca.registerTaxpayer(cuit, certificate, Array.isArray(pointsOfSale) ? pointsOfSale.map(Number) : undefined);
    } catch {
      return res.status(400).json({ message: "El certificado no se puede leer." });
    }
    res.json(arca.state());
  });
  app.get("/_emulator/arca/state", (_req: Request, res: Response) => res.json(arca.state()));
  app.get("/_emulator/arca", (req: Request, res: Response) => res.type("html").send(arcaPanel(arca, typeof req.query.msg === "string" ? req.query.msg : "")));
}
