// The printable voucher (pdfkit): the issuer's name, CUIT, address and tax condition, the letter
// and code, point of sale-number, the receiver, the line, net/VAT/total, CAE and its due date,
// ARCA's fiscal QR (RG 4892) and, on vouchers to final consumers, the transparency legend with
// the VAT the price contains (Ley 27.743).
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { and, eq } from "drizzle-orm";
import { accessGroups, businessUsers, chargingSessions, invoices, invoiceSessions, payments, stations, type Invoice } from "../db/schema";
import { formatCuit } from "../domain/cuit";
import { fiscalQrUrl, formatInvoiceNumber, invoiceAmounts, INVOICE_TYPE_LABELS, invoiceLetter, isCreditNote, showsTransparency, TRANSPARENCY_LEGEND, type InvoiceType } from "../domain/invoice";
import { DEFAULT_VAT_RATE_BP } from "../domain/pricing";
import { formatArs } from "../domain/money";
import type { Db } from "../db/client";
import type { TaxCondition } from "../domain/arca-port";

const TAX_CONDITION_LABELS: Record<TaxCondition, string> = {
  RESPONSABLE_INSCRIPTO: "IVA Responsable Inscripto",
  MONOTRIBUTO: "Responsable Monotributo",
  EXENTO: "IVA Sujeto Exento",
};
const RECEIVER_CONDITION_LABELS: Record<number, string> = { 1: "IVA Responsable Inscripto", 4: "IVA Sujeto Exento", 5: "Consumidor Final", 6: "Responsable Monotributo" };

/** "26/11/2026" from "2026-11-26". */
function dmy(date: string): string {
  const [y, m, d] = date.split("-");
  return `${d}/${m}/${y}`;
}

export interface InvoicePdfData {
  invoice: Invoice;
  issuer: { name: string; cuit: string; address: string | null; taxCondition: TaxCondition };
  /** The line's description: the charge and where it happened. */
  description: string;
  /** The invoice a credit note corrects, as printed. */
  corrects: string | null;
  /** A monthly invoice: one line per session it covers, as each was charged (VAT included). */
  sessions?: PdfSessionLine[];
  /** The VAT per rate (a monthly invoice may have several). */
  vatByRate: { rateBp: number; cents: number }[];
}

export interface PdfSessionLine {
  /** "2026-10-14": the day it ended, in Argentina. */
  date: string;
  station: string | null;
  idTag: string;
  energyWh: number;
  totalCents: number;
}

const kwhText = (wh: number) => `${(wh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kWh`;
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];

/** A monthly invoice's sessions and VAT per rate, in the order they ended. */
async function monthlyLines(db: Db, inv: Invoice): Promise<{ sessions: PdfSessionLine[]; vatByRate: { rateBp: number; cents: number }[] }> {
  const rows = await db
    .select({ stoppedAt: chargingSessions.stoppedAt, station: stations.name, idTag: chargingSessions.idTag, energyWh: chargingSessions.energyWh, totalCents: invoiceSessions.totalCents, vatRateBp: invoiceSessions.vatRateBp })
    .from(invoiceSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, invoiceSessions.sessionId))
    .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
    .where(eq(invoiceSessions.invoiceId, inv.id))
    .orderBy(chargingSessions.stoppedAt, chargingSessions.id);
  const byRate = new Map<number, number>();
  for (const r of rows) byRate.set(r.vatRateBp, (byRate.get(r.vatRateBp) ?? 0) + r.totalCents);
  const type = inv.type as InvoiceType;
  return {
    sessions: rows.map((r) => ({ date: argDay(r.stoppedAt), station: r.station, idTag: r.idTag, energyWh: r.energyWh, totalCents: r.totalCents })),
    vatByRate: [...byRate.entries()].sort(([a], [b]) => a - b).map(([rateBp, cents]) => ({ rateBp, cents: invoiceAmounts(cents, rateBp, type).vatCents })),
  };
}

const argDay = (at: Date | null) => (at ? new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10) : "");

/** What the PDF of a company's invoice shows; undefined when it is not theirs or not authorised. */
export async function invoicePdfData(db: Db, businessId: string, invoiceId: string, taxCondition: TaxCondition): Promise<InvoicePdfData | undefined> {
  const [row] = await db
    .select({ invoice: invoices, business: businessUsers, stationName: stations.name, energyWh: chargingSessions.energyWh, groupName: accessGroups.name })
    .from(invoices)
    .innerJoin(businessUsers, eq(businessUsers.id, invoices.businessId))
    .leftJoin(accessGroups, eq(accessGroups.id, invoices.accessGroupId))
    .leftJoin(payments, eq(payments.id, invoices.paymentId))
    .leftJoin(stations, eq(stations.id, payments.stationId))
    .leftJoin(chargingSessions, eq(chargingSessions.id, payments.sessionId))
    .where(and(eq(invoices.id, invoiceId), eq(invoices.businessId, businessId)));
  if (!row || row.invoice.status !== "AUTHORIZED" || !row.business.cuit) return undefined;
  const inv = row.invoice;
  let corrects: string | null = null;
  if (inv.creditNoteOf) {
    const [orig] = await db.select().from(invoices).where(eq(invoices.id, inv.creditNoteOf));
    if (orig?.type && orig.pointOfSale && orig.number) corrects = `${INVOICE_TYPE_LABELS[orig.type as InvoiceType]} N° ${formatInvoiceNumber(orig.pointOfSale, orig.number)}`;
  }
  const monthly = inv.billingMonth ? await monthlyLines(db, inv) : undefined;
  const kwh = row.energyWh ? ` · ${kwhText(row.energyWh)}` : "";
  const what = monthly
    ? `Servicio de carga de vehículos eléctricos de ${MONTHS[Number(inv.billingMonth!.slice(5, 7)) - 1]} de ${inv.billingMonth!.slice(0, 4)}${row.groupName ? ` (grupo «${row.groupName}»)` : ""}: ${monthly.sessions.length} ${monthly.sessions.length === 1 ? "carga" : "cargas"}`
    : `Servicio de carga de vehículo eléctrico${row.stationName ? ` en ${row.stationName}` : ""}${kwh}`;
  return {
    invoice: inv,
    issuer: { name: row.business.businessName, cuit: row.business.cuit, address: row.business.businessAddress, taxCondition },
    description: isCreditNote(inv.type as InvoiceType) ? `Devolución: ${what}` : what,
    corrects,
    ...(monthly ? { sessions: monthly.sessions } : {}),
    vatByRate: monthly?.vatByRate ?? [{ rateBp: inv.vatRateBp ?? DEFAULT_VAT_RATE_BP, cents: inv.vatCents }],
  };
}

/**
 * A monthly invoice's sessions, one line each with what it was charged (VAT included, so the
 * lines add up to the voucher's total), continuing on new pages; answers where the table ends.
 */
function sessionTable(doc: PDFKit.PDFDocument, sessions: PdfSessionLine[], from: number): number {
  let y = from;
  const head = () => {
    doc.font("Helvetica-Bold").fontSize(8);
    doc.text("Fecha", 40, y).text("Estación", 95, y, { width: 200 }).text("Tarjeta", 300, y, { width: 90 }).text("Energía", 390, y, { width: 60, align: "right" }).text("Importe (IVA incl.)", 455, y, { width: 100, align: "right" });
    y += 13;
    doc.font("Helvetica");
  };
  head();
  for (const s of sessions) {
    if (y > 780) {
      doc.addPage();
      y = 40;
      head();
    }
    doc.text(dmy(s.date), 40, y).text(s.station ?? "—", 95, y, { width: 200, lineBreak: false, ellipsis: true }).text(s.idTag, 300, y, { width: 90, lineBreak: false, ellipsis: true }).text(kwhText(s.energyWh), 390, y, { width: 60, align: "right" }).text(formatArs(s.totalCents), 455, y, { width: 100, align: "right" });
    y += 12;
  }
  doc.fontSize(10);
  return y + 12;
}

/** The voucher as a PDF (A4, Spanish). */
export async function invoicePdf(d: InvoicePdfData): Promise<Buffer> {
  const inv = d.invoice;
  const type = inv.type as InvoiceType;
  const number = formatInvoiceNumber(inv.pointOfSale ?? 0, inv.number ?? 0);
  const letter = invoiceLetter(type);
  const doc = new PDFDocument({ size: "A4", margin: 40, info: { Title: `${INVOICE_TYPE_LABELS[type]} ${number}`, Author: d.issuer.name } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  // Header: issuer left, letter box centre, voucher data right.
  doc.font("Helvetica-Bold").fontSize(14).text(d.issuer.name, 40, 40, { width: 220 });
  doc.font("Helvetica").fontSize(9).text(`CUIT ${formatCuit(d.issuer.cuit)}`, 40, doc.y + 4, { width: 220 });
  if (d.issuer.address) doc.text(d.issuer.address, { width: 220 });
  doc.text(TAX_CONDITION_LABELS[d.issuer.taxCondition], { width: 220 });
  doc.rect(277, 40, 40, 40).stroke();
  doc.font("Helvetica-Bold").fontSize(26).text(letter, 277, 46, { width: 40, align: "center" });
  doc.font("Helvetica").fontSize(7).text(`Cód. ${String(type).padStart(3, "0")}`, 277, 84, { width: 40, align: "center" });
  doc.font("Helvetica-Bold").fontSize(13).text(INVOICE_TYPE_LABELS[type], 340, 40, { width: 215, align: "right" });
  doc.font("Helvetica").fontSize(10).text(`N° ${number}`, 340, doc.y + 2, { width: 215, align: "right" });
  doc.text(`Fecha de emisión: ${dmy(inv.issueDate)}`, { width: 215, align: "right" });
  doc.text(`Período: ${dmy(inv.serviceFrom)} al ${dmy(inv.serviceTo)}`, { width: 215, align: "right" });
  doc.moveTo(40, 130).lineTo(555, 130).stroke();

  // Receiver.
  const receiver = inv.receiverDocType === 80 ? `${inv.receiverName ?? ""} · CUIT ${formatCuit(inv.receiverDocNumber)}` : "Consumidor Final";
  doc.font("Helvetica").fontSize(10).text(`Cliente: ${receiver}`, 40, 140);
  doc.text(`Condición frente al IVA: ${RECEIVER_CONDITION_LABELS[inv.receiverVatCondition] ?? "Consumidor Final"}`);
  if (d.corrects) doc.text(`Comprobante asociado: ${d.corrects}`);
  doc.text("Condición de venta: Contado");

  // The line: a class A voucher itemises net, the others the final price.
  const linePrice = letter === "A" ? inv.netCents : inv.totalCents;
  const top = doc.y + 14;
  doc.font("Helvetica-Bold").text("Descripción", 40, top).text("Importe", 455, top, { width: 100, align: "right" });
  doc.font("Helvetica").text(d.description, 40, top + 18, { width: 400 });
  doc.text(formatArs(linePrice), 455, top + 18, { width: 100, align: "right" });

  // Totals.
  let y = d.sessions ? sessionTable(doc, d.sessions, doc.y + 12) : top + 60;
  if (y > 600) {
    doc.addPage();
    y = 40;
  }
  const total = (label: string, cents: number, bold = false) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").text(label, 300, y, { width: 150, align: "right" });
    doc.text(formatArs(cents), 455, y, { width: 100, align: "right" });
    y += 16;
  };
  if (letter === "A") {
    total("Importe neto gravado", inv.netCents);
    for (const v of d.vatByRate) total(`IVA ${(v.rateBp / 100).toLocaleString("es-AR")} %`, v.cents);
  }
  total("Importe total", inv.totalCents, true);
  if (showsTransparency(type)) {
    y += 8;
    doc.font("Helvetica-Bold").fontSize(9).text(TRANSPARENCY_LEGEND, 40, y, { width: 515 });
    doc.font("Helvetica").text(`IVA contenido: ${formatArs(inv.vatCents)}`, 40, doc.y + 2, { width: 515 });
    y = doc.y + 8;
  }

  // CAE and the fiscal QR.
  const qrY = Math.max(y + 20, 420);
  if (inv.cae) {
    const url = fiscalQrUrl({ issueDate: inv.issueDate, cuit: d.issuer.cuit, pointOfSale: inv.pointOfSale ?? 0, type, number: inv.number ?? 0, totalCents: inv.totalCents, receiverDocType: inv.receiverDocType, receiverDocNumber: inv.receiverDocNumber, cae: inv.cae });
    const png = await QRCode.toBuffer(url, { type: "png", margin: 1, width: 240 });
    doc.image(png, 40, qrY, { width: 110 });
  }
  doc.font("Helvetica-Bold").fontSize(10).text(`CAE N°: ${inv.cae ?? "consultalo en ARCA"}`, 170, qrY + 20);
  doc.font("Helvetica").text(`Fecha de vencimiento del CAE: ${inv.caeDueDate ? dmy(inv.caeDueDate) : "—"}`, 170, doc.y + 4);
  doc.fontSize(8).text("Comprobante autorizado por ARCA. Verificá su validez escaneando el código QR.", 170, doc.y + 10, { width: 380 });
  doc.end();
  return done;
}
