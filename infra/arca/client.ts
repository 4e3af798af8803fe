// ARCA's electronic-invoice web services with the operator's own certificate: WSAA's LoginCms for
// the access ticket (token + sign, ~12 h) and WSFEv1 for the rest, over plain SOAP 1.1 to
// configurable URLs (ARCA_WSAA_URL / ARCA_WSFE_URL: homologation, production, or the local
// emulator). Why our own SOAP and not @arcasdk/core's: ADR 0047.
//
// Failures, as invoicing needs them: a network error, a timeout, an HTTP error or a SOAP fault is
// ArcaUnavailableError (nothing was decided: retry later); a login WSAA refuses is
// ArcaLoginError (also "unavailable" for invoicing, with the reason for the settings screen);
// a voucher ARCA rejects is a CaeResult of kind "rejected" with its reasons in Spanish.
import { createHash } from "node:crypto";
import { ArcaUnavailableError, type ArcaClient, type ArcaMessage, type AuthorizedVoucher, type CaeRequest, type CaeResult, type VoucherType } from "../../domain/arca-port";
import { loginTicketRequest, signLoginTicket } from "./certificate";
import { loginRefusalMessage, plainMessage } from "./messages";
import { element, elements, soapEnvelope, soapFault, text, toXml, unescapeXml } from "./xml";

export const ARCA_URLS = {
  HOMOLOGACION: { wsaa: "https://wsaahomo.afip.gov.ar/ws/services/LoginCms", wsfe: "https://wswhomo.afip.gov.ar/wsfev1/service.asmx" },
  PRODUCCION: { wsaa: "https://wsaa.afip.gov.ar/ws/services/LoginCms", wsfe: "https://servicios1.afip.gov.ar/wsfev1/service.asmx" },
} as const;

const WSFE_NS = "http://ar.gov.afip.dif.FEV1/";
const WSAA_NS = "http://wsaa.view.sua.dvadac.desein.afip.gov";
/** A ticket is renewed from this long before it expires (WSAA may refuse: then it is used to its end). */
const RENEW_BEFORE_MS = 10 * 60_000;
/** ARCA answers within seconds when it is well; past this it is treated as down. */
const DEFAULT_TIMEOUT_MS = 20_000;
/** WSFE's authentication errors: the ticket is not (or no longer) good, so it is dropped. */
const AUTH_ERRORS = new Set([600, 601]);

/** WSAA refused the login: an expired or foreign certificate, a bad signature, no wsfe access. */
export class ArcaLoginError extends ArcaUnavailableError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ArcaLoginError";
  }
}

/** A SOAP fault: for WSFE, ARCA's own trouble; for WSAA, mostly a refusal of the login. */
class SoapFaultError extends ArcaUnavailableError {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`ARCA respondió con un error: ${detail || code}`);
    this.name = "SoapFaultError";
  }
}

export interface AccessTicket {
  token: string;
  sign: string;
  expiresAt: Date;
}

/** The outcome of asking for the one WSAA login of a ticket key. */
export type LoginClaim = { claimed: true; previousLoginAt: Date | null } | { claimed: false; waitUntil: Date | null };

/**
 * Where access tickets are kept between calls, per WSAA, CUIT, certificate and service. WSAA gives
 * one ticket at a time per certificate and service and refuses another while it is valid, so the
 * store is also where the processes agree who logs in: one claim at a time, and after a refusal
 * nobody asks again before the old ticket expires. The default keeps them in this process's
 * memory; infra/arca/ticket-store.ts keeps them sealed in the database, for restarts and nodes.
 */
export interface TicketStore {
  get(key: string): Promise<AccessTicket | null>;
  /** Keeps (or, with null, drops) the ticket; keeping one ends the login claim and any wait. */
  set(key: string, ticket: AccessTicket | null): Promise<void>;
  /** Claims the login for `leaseMs`; not while another claim is live or a refusal's wait runs. */
  claimLogin(key: string, now: Date, leaseMs: number): Promise<LoginClaim>;
  /** The claimed login ended without a ticket: no login before `waitUntil` (null: at once). */
  endLogin(key: string, waitUntil: Date | null): Promise<void>;
}

export function memoryTicketStore(): TicketStore {
  const map = new Map<string, { ticket: AccessTicket | null; loginAt: Date | null; loginUntil: Date | null; waitUntil: Date | null }>();
  const entry = (key: string) => {
    let e = map.get(key);
    if (!e) map.set(key, (e = { ticket: null, loginAt: null, loginUntil: null, waitUntil: null }));
    return e;
  };
  return {
    get: async (key) => map.get(key)?.ticket ?? null,
    set: async (key, ticket) => void Object.assign(entry(key), { ticket, loginUntil: null, waitUntil: null }),
    async claimLogin(key, now, leaseMs) {
      const e = entry(key);
      if (e.waitUntil && e.waitUntil > now) return { claimed: false, waitUntil: e.waitUntil };
      if (e.loginUntil && e.loginUntil > now) return { claimed: false, waitUntil: null };
      const previousLoginAt = e.loginAt;
      Object.assign(e, { loginAt: now, loginUntil: new Date(now.getTime() + leaseMs), waitUntil: null });
      return { claimed: true, previousLoginAt };
    },
    endLogin: async (key, waitUntil) => void Object.assign(entry(key), { loginUntil: null, waitUntil }),
  };
}

const processTickets = memoryTicketStore();
/** Logins under way in this process, per ticket key: concurrent calls share one. */
const loginsInFlight = new Map<string, Promise<AccessTicket>>();

/** How long WSAA's tickets last: a refused login waits at most this long after the previous one. */
export const TICKET_LIFETIME_MS = 12 * 3_600_000;
/** WSAA refused and no login of ours explains the ticket it holds (another program, a lost store): ask again after this. */
const UNKNOWN_TICKET_WAIT_MS = 3_600_000;
/** A ticket this close to its expiry is not used: a call may take this long to reach WSFE. */
const EXPIRY_MARGIN_MS = 60_000;
/** While another process logs in, its ticket is looked for this often. */
const OTHER_LOGIN_POLL_MS = 250;

/** WSAA's refusal of a second ticket while one it gave is valid («El CEE ya posee un TA valido…»). */
const ALREADY_AUTHENTICATED = "coe.alreadyAuthenticated";

const argentineTime = (at: Date) =>
  at.toLocaleString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false });

/** The login error while WSAA's previous ticket, which we do not have, is still valid. */
function ticketHeldElsewhere(until: Date): ArcaLoginError {
  return new ArcaLoginError(
    ALREADY_AUTHENTICATED,
    `ARCA ya entregó un acceso vigente para este certificado (a otro programa, o antes de un reinicio sin que llegara a guardarse) y no da otro hasta que venza: volvemos a pedirlo el ${argentineTime(until)}. Mientras tanto los comprobantes esperan en la cola.`,
  );
}

export interface ArcaClientOptions {
  cuit: string;
  certPem: string;
  keyPem: string;
  wsaaUrl: string;
  wsfeUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => Date;
  tickets?: TicketStore;
}

export interface ArcaSoapClient extends ArcaClient {
  /** WSAA LoginCms (or the cached ticket while it is valid). */
  login(): Promise<AccessTicket>;
}

/** An amount as ARCA writes it (1234 centavos → "12.34"). */
export const pesos = (cents: number) => (cents / 100).toFixed(2);
/** A date as ARCA writes it (2026-11-29 → "20261129"). */
export const yyyymmdd = (isoDate: string) => isoDate.replace(/-/g, "");
const isoDate = (d: string | undefined) => (d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : "");
const CLASS_C = new Set<VoucherType>([11, 13]);

function messagesOf(xml: string | undefined, list: string, item: string): ArcaMessage[] {
  if (!xml) return [];
  const block = element(xml, list);
  if (block === undefined) return [];
  return elements(block, item).map((e) => plainMessage(Number(text(e, "Code") ?? 0), text(e, "Msg") ?? ""));
}

/** FECAESolicitar's detail for one voucher, in the schema's order, amounts in pesos with 2 decimals. */
export function caeDetail(r: CaeRequest): Record<string, unknown> {
  const classC = CLASS_C.has(r.type);
  return {
    Concepto: r.concept,
    DocTipo: r.receiverDocType,
    DocNro: r.receiverDocNumber,
    CbteDesde: r.number,
    CbteHasta: r.number,
    CbteFch: yyyymmdd(r.issueDate),
    ImpTotal: pesos(r.totalCents),
    ImpTotConc: pesos(0),
    // A Factura C discriminates no VAT: its whole amount but the exempt part is its net.
    ImpNeto: pesos(classC ? r.totalCents - r.exemptCents : r.netCents),
    ImpOpEx: pesos(r.exemptCents),
    ImpTrib: pesos(0),
    ImpIVA: pesos(classC ? 0 : r.vatCents),
    FchServDesde: yyyymmdd(r.serviceFrom),
    FchServHasta: yyyymmdd(r.serviceTo),
    FchVtoPago: yyyymmdd(r.paymentDueDate),
    MonId: "PES",
    MonCotiz: 1,
    CondicionIVAReceptorId: r.receiverVatConditionId,
    CbtesAsoc: r.associated?.length
      ? { CbteAsoc: r.associated.map((a) => ({ Tipo: a.type, PtoVta: a.pointOfSale, Nro: a.number, Cuit: a.cuit, CbteFch: yyyymmdd(a.date) })) }
      : undefined,
    Iva: !classC && r.vat.length ? { AlicIva: r.vat.map((v) => ({ Id: v.id, BaseImp: pesos(v.baseCents), Importe: pesos(v.amountCents) })) } : undefined,
  };
}

/** FECAESolicitar's answer for one voucher. */
export function parseCaeResult(xml: string): CaeResult {
  const result = element(xml, "FECAESolicitarResult") ?? "";
  const detail = element(result, "FECAEDetResponse");
  const observations = messagesOf(detail, "Observaciones", "Obs");
  const errors = messagesOf(result, "Errors", "Err");
  const cae = detail ? text(detail, "CAE") : undefined;
  if (detail && text(detail, "Resultado") === "A" && cae && /^\d{14}$/.test(cae)) {
    return { kind: "authorized", cae, caeDueDate: isoDate(text(detail, "CAEFchVto")), observations };
  }
  // A rejection carries its reasons as errors, observations, or both; never none.
  if (errors.length === 0 && observations.length === 0) errors.push({ code: 0, message: "ARCA rechazó el comprobante sin decir por qué." });
  return { kind: "rejected", errors, observations };
}

/** FECompConsultar's answer: the voucher ARCA holds, or null when it has none with that number (error 602). */
export function parseVoucher(xml: string): AuthorizedVoucher | null {
  const result = element(xml, "FECompConsultarResult") ?? "";
  const errors = messagesOf(result, "Errors", "Err");
  const got = element(result, "ResultGet");
  if (errors.some((e) => e.code === 602) || (got === undefined && errors.length === 0)) return null;
  if (errors.length > 0 || got === undefined) throw new ArcaUnavailableError(errors.map((e) => e.message).join(" "));
  const cae = text(got, "CodAutorizacion") ?? "";
  if (text(got, "Resultado") !== "A" || !/^\d{14}$/.test(cae)) return null;
  const amount = (name: string) => Math.round(Number(text(got, name) ?? "0") * 100);
  return {
    pointOfSale: Number(text(got, "PtoVta")),
    type: Number(text(got, "CbteTipo")) as VoucherType,
    number: Number(text(got, "CbteDesde")),
    cae,
    caeDueDate: isoDate(text(got, "FchVto")),
    issueDate: isoDate(text(got, "CbteFch")),
    receiverDocType: Number(text(got, "DocTipo")),
    receiverDocNumber: text(got, "DocNro") ?? "",
    totalCents: amount("ImpTotal"),
    netCents: amount("ImpNeto"),
    exemptCents: amount("ImpOpEx"),
    vatCents: amount("ImpIVA"),
  };
}

/**
 * The access ticket for one key: the stored one while it is good, else a new one by the one login
 * the store lets through (concurrent calls of this process share it).
 */
function ticketKeeper(o: { tickets: TicketStore; key: string; now: () => Date; timeoutMs: number; loginNow: () => Promise<AccessTicket> }): () => Promise<AccessTicket> {
  const { tickets, key, now, timeoutMs, loginNow } = o;
  async function login(): Promise<AccessTicket> {
    const cached = await tickets.get(key);
    if (cached && cached.expiresAt.getTime() - RENEW_BEFORE_MS > now().getTime()) return cached;
    let pending = loginsInFlight.get(key);
    if (!pending) {
      pending = renew(cached).finally(() => loginsInFlight.delete(key));
      loginsInFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * A new ticket, by the one login the store lets through. WSAA refuses a second ticket while its
   * last is valid: a ticket we still hold is used to its end; one we lost (a restart before it was
   * stored, another program with the same certificate) is waited out, and nobody asks meanwhile.
   */
  async function renew(cached: AccessTicket | null): Promise<AccessTicket> {
    const usable = cached && cached.expiresAt.getTime() - EXPIRY_MARGIN_MS > now().getTime() ? cached : null;
    const claim = await tickets.claimLogin(key, now(), timeoutMs + 10_000);
    if (!claim.claimed) {
      if (usable) return usable;
      if (claim.waitUntil) throw ticketHeldElsewhere(claim.waitUntil);
      return ticketOfOtherLogin();
    }
    try {
      return await loginNow();
    } catch (error) {
      if (!(error instanceof ArcaLoginError && error.code === ALREADY_AUTHENTICATED)) {
        await tickets.endLogin(key, null);
        throw error;
      }
      // The ticket WSAA holds lasts 12 h from the login that got it: ours when we asked for one lately.
      const previous = claim.previousLoginAt?.getTime() ?? 0;
      const until = usable ? usable.expiresAt : new Date(previous + TICKET_LIFETIME_MS > now().getTime() ? previous + TICKET_LIFETIME_MS + EXPIRY_MARGIN_MS : now().getTime() + UNKNOWN_TICKET_WAIT_MS);
      await tickets.endLogin(key, until);
      if (usable) return usable;
      throw ticketHeldElsewhere(until);
    }
  }

  /** Another process is logging in: its ticket, once stored, or "unavailable" when it takes too long. */
  async function ticketOfOtherLogin(): Promise<AccessTicket> {
    const giveUpAt = Date.now() + timeoutMs;
    while (Date.now() < giveUpAt) {
      await new Promise((r) => setTimeout(r, OTHER_LOGIN_POLL_MS));
      const stored = await tickets.get(key);
      if (stored && stored.expiresAt.getTime() - EXPIRY_MARGIN_MS > now().getTime()) return stored;
    }
    throw new ArcaUnavailableError("Otro proceso está pidiendo el acceso a ARCA y todavía no lo obtuvo: reintentamos en unos minutos.");
  }
  return login;
}

export function createArcaClient(options: ArcaClientOptions): ArcaSoapClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const tickets = options.tickets ?? processTickets;
  const certHash = createHash("sha256").update(options.certPem).digest("hex").slice(0, 16);
  // WSAA gives one ticket per certificate and service, and the WSAA (homologation, production, an
  // emulator) tells which ARCA gave it.
  const ticketKey = `${options.wsaaUrl}|${options.cuit}|${certHash}|wsfe`;

  async function post(url: string, action: string, body: string): Promise<string> {
    let response: Response;
    try {
      response = await doFetch(url, {
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${action}"` },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new ArcaUnavailableError(timedOut ? "ARCA no respondió a tiempo." : "No pudimos conectarnos con ARCA.", { cause: error });
    }
    const xml = await response.text().catch(() => "");
    const fault = soapFault(xml);
    if (fault) throw new SoapFaultError(fault.code, fault.message);
    if (!response.ok) throw new ArcaUnavailableError(`ARCA respondió con un error (HTTP ${response.status}).`);
    return xml;
  }

  async function loginNow(): Promise<AccessTicket> {
    const cms = signLoginTicket(loginTicketRequest("wsfe", now()), options.certPem, options.keyPem);
    const body = soapEnvelope(`<wsaa:loginCms><wsaa:in0>${cms}</wsaa:in0></wsaa:loginCms>`, { wsaa: WSAA_NS });
    let xml: string;
    try {
      xml = await post(options.wsaaUrl, "", body);
    } catch (error) {
      // WSAA's faults are its refusals (certificate, signature, access), except its own outages.
      if (error instanceof SoapFaultError && !/server|internal/i.test(error.code)) throw new ArcaLoginError(error.code.replace(/^.*:/, ""), loginRefusalMessage(error.code, error.detail));
      throw error;
    }
    const ticketXml = unescapeXml(element(xml, "loginCmsReturn") ?? "");
    const token = text(ticketXml, "token");
    const sign = text(ticketXml, "sign");
    const expiration = text(ticketXml, "expirationTime");
    if (!token || !sign || !expiration || Number.isNaN(Date.parse(expiration))) throw new ArcaUnavailableError("ARCA respondió el ingreso sin un acceso válido.");
    const ticket = { token, sign, expiresAt: new Date(expiration) };
    await tickets.set(ticketKey, ticket);
    return ticket;
  }

  const login = ticketKeeper({ tickets, key: ticketKey, now, timeoutMs, loginNow });

  /** One WSFEv1 operation with the access ticket; an answer whose errors are about the ticket drops it. */
  async function wsfe(operation: string, inner: Record<string, unknown>, withAuth = true): Promise<string> {
    let auth = "";
    if (withAuth) {
      const t = await login();
      auth = toXml({ Auth: { Token: t.token, Sign: t.sign, Cuit: options.cuit } }, "ar:");
    }
    const body = soapEnvelope(`<ar:${operation}>${auth}${toXml(inner, "ar:")}</ar:${operation}>`, { ar: WSFE_NS });
    const xml = await post(options.wsfeUrl, `${WSFE_NS}${operation}`, body);
    const errors = messagesOf(element(xml, `${operation}Result`), "Errors", "Err");
    if (errors.some((e) => AUTH_ERRORS.has(e.code))) {
      await tickets.set(ticketKey, null);
      throw new ArcaUnavailableError(errors.map((e) => e.message).join(" "));
    }
    return xml;
  }

  return {
    login,
    async health() {
      const xml = await wsfe("FEDummy", {}, false);
      const ok = (name: string) => text(xml, name)?.toUpperCase() === "OK";
      return { appServer: ok("AppServer"), dbServer: ok("DbServer"), authServer: ok("AuthServer") };
    },
    async pointsOfSale() {
      const xml = await wsfe("FEParamGetPtosVenta", {});
      const result = element(xml, "FEParamGetPtosVentaResult") ?? "";
      return elements(result, "PtoVenta")
        .filter((p) => text(p, "Bloqueado") !== "S" && (text(p, "FchBaja") ?? "NULL").toUpperCase() === "NULL")
        .map((p) => Number(text(p, "Nro")))
        .filter((n) => Number.isInteger(n) && n > 0);
    },
    async lastAuthorized(pointOfSale: number, type: VoucherType) {
      const xml = await wsfe("FECompUltimoAutorizado", { PtoVta: pointOfSale, CbteTipo: type });
      const result = element(xml, "FECompUltimoAutorizadoResult") ?? "";
      const errors = messagesOf(result, "Errors", "Err");
      const number = Number(text(result, "CbteNro"));
      if (errors.length > 0 || !Number.isInteger(number) || number < 0) {
        throw new ArcaUnavailableError(errors.length ? errors.map((e) => e.message).join(" ") : "ARCA no dijo el último número autorizado.");
      }
      return number;
    },
    async requestCae(request: CaeRequest) {
      const xml = await wsfe("FECAESolicitar", {
        FeCAEReq: { FeCabReq: { CantReg: 1, PtoVta: request.pointOfSale, CbteTipo: request.type }, FeDetReq: { FECAEDetRequest: caeDetail(request) } },
      });
      return parseCaeResult(xml);
    },
    async voucher(pointOfSale: number, type: VoucherType, number: number) {
      const xml = await wsfe("FECompConsultar", { FeCompConsReq: { CbteTipo: type, CbteNro: number, PtoVta: pointOfSale } });
      return parseVoucher(xml);
    },
  };
}
