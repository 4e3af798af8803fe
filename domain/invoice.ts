// The fiscal rules of an electronic invoice (ARCA WSFEv1): which voucher a sale takes, how its
// total splits into net and VAT to the centavo, its printed number and the fiscal QR (RG 4892).
import { formatArs } from "./money";
import { vatCents } from "./pricing";
import { RECEIVER_TAX_CONDITIONS, type ReceiverTaxCondition } from "./receiver-tax-condition";

/** ARCA's voucher codes: Factura A/B/C and the credit note of each. */
export const INVOICE_TYPES = { FACTURA_A: 1, NOTA_CREDITO_A: 3, FACTURA_B: 6, NOTA_CREDITO_B: 8, FACTURA_C: 11, NOTA_CREDITO_C: 13 } as const;
export type InvoiceType = (typeof INVOICE_TYPES)[keyof typeof INVOICE_TYPES];
export const INVOICE_TYPE_CODES: readonly InvoiceType[] = Object.values(INVOICE_TYPES);

export type IssuerTaxCondition = "RESPONSABLE_INSCRIPTO" | "MONOTRIBUTO" | "EXENTO";

/** How each voucher is named on screens, PDFs and the sales book. */
export const INVOICE_TYPE_LABELS: Record<InvoiceType, string> = {
  1: "Factura A",
  3: "Nota de crédito A",
  6: "Factura B",
  8: "Nota de crédito B",
  11: "Factura C",
  13: "Nota de crédito C",
};

/** The letter printed in the voucher's box. */
export function invoiceLetter(type: InvoiceType): "A" | "B" | "C" {
  return type === 1 || type === 3 ? "A" : type === 6 || type === 8 ? "B" : "C";
}

export { RECEIVER_TAX_CONDITIONS, type ReceiverTaxCondition };

/** ARCA's CondicionIVAReceptorId of each receiver condition. */
const RECEIVER_CONDITION_IDS: Record<ReceiverTaxCondition, number> = { RESPONSABLE_INSCRIPTO: 1, MONOTRIBUTO: 6, EXENTO: 4, CONSUMIDOR_FINAL: 5 };

/** The receiver condition of ARCA's id (an unknown id: a final consumer). */
export function receiverConditionOf(vatConditionId: number): ReceiverTaxCondition {
  const found = RECEIVER_TAX_CONDITIONS.find((c) => RECEIVER_CONDITION_IDS[c] === vatConditionId);
  return found ?? "CONSUMIDOR_FINAL";
}

/**
 * Who receives the voucher: a final consumer, or a customer who gave its CUIT (a driver asking for
 * a Factura A is taken as a Responsable Inscripto; an access group says its condition).
 */
export type Receiver = { kind: "CONSUMIDOR_FINAL" } | { kind: "CUIT"; cuit: string; name: string; condition?: ReceiverTaxCondition };

/**
 * A Responsable Inscripto issues Factura A to a Responsable Inscripto or a Monotributista who
 * gives its CUIT (RG 5003) and Factura B to an exempt buyer or a final consumer; a Monotributista
 * or an exempt taxpayer issues Factura C to anyone.
 */
export function invoiceTypeFor(issuer: IssuerTaxCondition, receiver: Receiver): InvoiceType {
  if (issuer !== "RESPONSABLE_INSCRIPTO") return INVOICE_TYPES.FACTURA_C;
  if (receiver.kind !== "CUIT") return INVOICE_TYPES.FACTURA_B;
  const condition = receiver.condition ?? "RESPONSABLE_INSCRIPTO";
  return condition === "RESPONSABLE_INSCRIPTO" || condition === "MONOTRIBUTO" ? INVOICE_TYPES.FACTURA_A : INVOICE_TYPES.FACTURA_B;
}

/** The credit note that corrects an invoice of `type` (the same letter). */
export function creditNoteType(type: InvoiceType): InvoiceType {
  const letter = invoiceLetter(type);
  return letter === "A" ? INVOICE_TYPES.NOTA_CREDITO_A : letter === "B" ? INVOICE_TYPES.NOTA_CREDITO_B : INVOICE_TYPES.NOTA_CREDITO_C;
}

export function isCreditNote(type: InvoiceType): boolean {
  return type === 3 || type === 8 || type === 13;
}

/** The receiver's document as ARCA codes it: 80 CUIT with its number and condition, 99 consumidor final with "0". */
export function receiverDocument(receiver: Receiver): { docType: 80 | 99; docNumber: string; vatConditionId: number } {
  return receiver.kind === "CUIT"
    ? { docType: 80, docNumber: receiver.cuit, vatConditionId: RECEIVER_CONDITION_IDS[receiver.condition ?? "RESPONSABLE_INSCRIPTO"] }
    : { docType: 99, docNumber: "0", vatConditionId: RECEIVER_CONDITION_IDS.CONSUMIDOR_FINAL };
}

/** A voucher row's receiver columns, from the receiver's document. */
export function receiverColumns(doc: ReturnType<typeof receiverDocument>): { receiverDocType: number; receiverDocNumber: string; receiverVatCondition: number } {
  return { receiverDocType: doc.docType, receiverDocNumber: doc.docNumber, receiverVatCondition: doc.vatConditionId };
}

/** ARCA's VAT rate ids (Alícuotas): 3 = 0 %, 9 = 2,5 %, 8 = 5 %, 4 = 10,5 %, 5 = 21 %, 6 = 27 %. */
const VAT_RATE_IDS: Record<number, number> = { 0: 3, 250: 9, 500: 8, 1050: 4, 2100: 5, 2700: 6 };

export function vatRateId(vatRateBp: number): number | null {
  return VAT_RATE_IDS[vatRateBp] ?? null;
}

export interface InvoiceAmounts {
  totalCents: number;
  netCents: number;
  vatCents: number;
  exemptCents: number;
  /** One line per rate (empty for a class C voucher, which shows no VAT). */
  vat: { id: number; baseCents: number; amountCents: number }[];
}

/** A voucher row's four amount columns (the per-rate lines go to ARCA, not to the row). */
export function amountColumns(a: InvoiceAmounts): Omit<InvoiceAmounts, "vat"> {
  return { totalCents: a.totalCents, netCents: a.netCents, vatCents: a.vatCents, exemptCents: a.exemptCents };
}

/**
 * The split of a charged total (VAT included) into net and VAT: the VAT contained at the rate,
 * rounded to the centavo, and the net the rest, so net + VAT is the total exactly. A class C
 * voucher is all net.
 */
export function invoiceAmounts(totalCents: number, vatRateBp: number, type: InvoiceType): InvoiceAmounts {
  if (!Number.isSafeInteger(totalCents) || totalCents <= 0) throw new RangeError(`El total del comprobante debe ser un entero positivo (recibido ${totalCents})`);
  if (invoiceLetter(type) === "C") return { totalCents, netCents: totalCents, vatCents: 0, exemptCents: 0, vat: [] };
  const id = vatRateId(vatRateBp);
  if (id === null) throw new RangeError(`ARCA no tiene una alícuota de IVA de ${vatRateBp / 100} %`);
  const vat = vatCents(totalCents, vatRateBp, true);
  const net = totalCents - vat;
  return { totalCents, netCents: net, vatCents: vat, exemptCents: 0, vat: [{ id, baseCents: net, amountCents: vat }] };
}

/** One sale of a voucher that covers several: its total (VAT included) and the VAT rate it was priced at. */
export interface SaleLine {
  totalCents: number;
  vatRateBp: number;
}

/**
 * The split of several sales priced at possibly different VAT rates (a monthly invoice's
 * sessions): per rate, the VAT contained in the sum of its sales, rounded to the centavo once (as
 * ARCA checks each rate's base against its VAT), the net the rest; the voucher's total is the sum
 * of the sales exactly. A class C voucher is all net.
 */
export function invoiceAmountsByRate(lines: readonly SaleLine[], type: InvoiceType): InvoiceAmounts {
  const byRate = new Map<number, number>();
  for (const l of lines) {
    if (!Number.isSafeInteger(l.totalCents) || l.totalCents <= 0) throw new RangeError(`Cada importe del comprobante debe ser un entero positivo (recibido ${l.totalCents})`);
    byRate.set(l.vatRateBp, (byRate.get(l.vatRateBp) ?? 0) + l.totalCents);
  }
  const totalCents = [...byRate.values()].reduce((a, b) => a + b, 0);
  if (totalCents <= 0) throw new RangeError("El comprobante no tiene importes");
  if (invoiceLetter(type) === "C") return { totalCents, netCents: totalCents, vatCents: 0, exemptCents: 0, vat: [] };
  const vat = [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, cents]) => invoiceAmounts(cents, rate, type).vat[0]);
  const vatTotal = vat.reduce((sum, v) => sum + v.amountCents, 0);
  return { totalCents, netCents: totalCents - vatTotal, vatCents: vatTotal, exemptCents: 0, vat };
}

/** A calendar month in Argentina (UTC−3 all year, no DST since 2009): its first day, the instants it spans, its last day. */
export interface BillingMonth {
  /** "2026-10-01". */
  month: string;
  /** Its first instant (00:00 in Argentina) and the first instant of the next month. */
  start: Date;
  end: Date;
  /** "2026-10-31". */
  lastDay: string;
}

const ARGENTINA_OFFSET_MS = 3 * 3_600_000;

/** The Argentine calendar month that starts on `month` ("YYYY-MM-01"). */
export function billingMonth(month: string): BillingMonth {
  const m = /^(\d{4})-(\d{2})-01$/.exec(month);
  if (!m) throw new RangeError(`Un mes se escribe AAAA-MM-01 (recibido ${month})`);
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  const start = new Date(Date.UTC(y, mo, 1) + ARGENTINA_OFFSET_MS);
  const end = new Date(Date.UTC(y, mo + 1, 1) + ARGENTINA_OFFSET_MS);
  const lastDay = new Date(Date.UTC(y, mo + 1, 0)).toISOString().slice(0, 10);
  return { month, start, end, lastDay };
}

/** The Argentine month before the one `now` falls in: the one the monthly close invoices. */
export function previousBillingMonth(now: Date): BillingMonth {
  const local = new Date(now.getTime() - ARGENTINA_OFFSET_MS);
  const first = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1));
  return billingMonth(first.toISOString().slice(0, 10));
}

/**
 * What a refund or chargeback leaves to credit: what went back to the driver out of what was
 * invoiced (the unused prepaid balance was never invoiced), all of it on a chargeback, never more
 * than the invoice, less what earlier credit notes already credited.
 */
export function creditOwed(p: { amountCents: number; chargedCents: number; refundedCents: number; chargedBack: boolean }, invoicedCents: number, creditedCents: number): number {
  const unused = p.amountCents - p.chargedCents;
  const back = p.chargedBack ? invoicedCents : Math.max(0, p.refundedCents - unused);
  return Math.max(0, Math.min(back, invoicedCents) - creditedCents);
}

/** "0003-00000042": the point of sale in 4 (or 5) digits and the number in 8. */
export function formatInvoiceNumber(pointOfSale: number, number: number): string {
  return `${String(pointOfSale).padStart(4, "0")}-${String(number).padStart(8, "0")}`;
}

/** Centavos as ARCA's decimal amount (1234 → 12.34). */
export function centsToDecimal(cents: number): number {
  return Number((cents / 100).toFixed(2));
}

export interface FiscalQrData {
  issueDate: string; // YYYY-MM-DD
  cuit: string;
  pointOfSale: number;
  type: InvoiceType;
  number: number;
  totalCents: number;
  receiverDocType: number;
  receiverDocNumber: string;
  cae: string;
}

/** Where ARCA's fiscal QR points (RG 4892); `p` is the base64 of the voucher's JSON. */
export const FISCAL_QR_URL = "https://www.arca.gob.ar/fe/qr/";

/** The JSON ARCA reads from the QR, in its field names and order (version 1). */
export function fiscalQrPayload(d: FiscalQrData): Record<string, string | number> {
  return {
    ver: 1,
    fecha: d.issueDate,
    cuit: Number(d.cuit),
    ptoVta: d.pointOfSale,
    tipoCmp: d.type,
    nroCmp: d.number,
    importe: centsToDecimal(d.totalCents),
    moneda: "PES",
    ctz: 1,
    tipoDocRec: d.receiverDocType,
    nroDocRec: Number(d.receiverDocNumber),
    tipoCodAut: "E",
    codAut: Number(d.cae),
  };
}

export function fiscalQrUrl(d: FiscalQrData): string {
  const json = JSON.stringify(fiscalQrPayload(d));
  // The payload is ASCII (digits, a date, fixed codes), so btoa's Latin-1 base64 is ARCA's.
  return `${FISCAL_QR_URL}?p=${btoa(json)}`;
}

/** The legend every voucher to a final consumer carries (Régimen de Transparencia Fiscal al Consumidor). */
export const TRANSPARENCY_LEGEND = "Régimen de Transparencia Fiscal al Consumidor Ley 27.743";

/** The legend and the VAT it contains go on class B vouchers, the ones to final consumers. */
export function showsTransparency(type: InvoiceType): boolean {
  return invoiceLetter(type) === "B";
}

/** What a voucher says of its amounts and receiver: ours as we asked for it, or ARCA's as it keeps it. */
export interface VoucherFacts {
  totalCents: number;
  netCents: number;
  vatCents: number;
  receiverDocType: number;
  receiverDocNumber: string;
}

/**
 * How ARCA's voucher differs from ours, in Spanish (empty when they agree): the amounts and the
 * receiver's document. A voucher that differs is not ours to take, whatever its number.
 */
export function voucherDisagreement(ours: VoucherFacts, arca: VoucherFacts): string[] {
  const out: string[] = [];
  const money = (label: string, a: number, b: number) => a !== b && out.push(`${label}: ${formatArs(b)} en ARCA, ${formatArs(a)} acá`);
  money("total", ours.totalCents, arca.totalCents);
  money("neto", ours.netCents, arca.netCents);
  money("IVA", ours.vatCents, arca.vatCents);
  const doc = (d: { receiverDocType: number; receiverDocNumber: string }) => (d.receiverDocType === 99 ? "consumidor final" : `documento ${d.receiverDocType} N° ${d.receiverDocNumber.replace(/^0+(?=\d)/, "")}`);
  if (doc(ours) !== doc(arca)) out.push(`receptor: ${doc(arca)} en ARCA, ${doc(ours)} acá`);
  return out;
}
