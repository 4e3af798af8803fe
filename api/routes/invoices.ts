// The company's electronic vouchers (ARCA): the list with how many wait for ARCA, one voucher,
// its PDF, the sales book ("Libro IVA Ventas") as CSV, and the operator's retry of a rejected or
// waiting one. Every query is scoped to the company; issuing is the invoicing service's.
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import type { Db } from "#db/client";
import { accessGroups, chargingSessions, invoices, invoiceSessions, stations, type Invoice } from "#db/schema";
import { csvDocument } from "#domain/csv";
import { formatCuit } from "#domain/cuit";
import { formatInvoiceNumber, INVOICE_TYPE_LABELS, isCreditNote, type InvoiceType } from "#domain/invoice";
import { invoiceExportQuery, invoiceListQuery } from "#contract/schemas/queries";
import type { InvoiceDetailDto, InvoiceDto, InvoicePage, InvoiceSessionDto } from "#contract/dto";
import { afterCommit } from "#db/ambient";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { idParam, iso, pageOffset, readQuery } from "../http";
import { ApiError, notFound } from "../problem";
import { EXPORT_MAX_ROWS } from "./activity";

const CSV_HEADER = ["Fecha", "Tipo", "Punto de venta", "Número", "Receptor", "Documento del receptor", "Neto gravado", "IVA", "Exento", "Total", "CAE", "Vencimiento del CAE", "Cargas"] as const;

/** What a voucher's DTO needs beside its row: a monthly invoice's sessions and group name. */
interface Covered {
  sessionIds: Map<string, string[]>;
  groupNames: Map<string, string>;
}

/** The sessions and group names of the monthly invoices among `rows`, in two queries. */
async function covered(db: Db, businessId: string, rows: Invoice[]): Promise<Covered> {
  const monthly = rows.filter((i) => i.billingMonth);
  const sessionIds = new Map<string, string[]>();
  const groupNames = new Map<string, string>();
  if (monthly.length === 0) return { sessionIds, groupNames };
  const groupIds = [...new Set(monthly.map((i) => i.accessGroupId).filter((g): g is string => !!g))];
  const [links, groups] = await Promise.all([
    db
      .select({ invoiceId: invoiceSessions.invoiceId, sessionId: invoiceSessions.sessionId })
      .from(invoiceSessions)
      .innerJoin(chargingSessions, eq(chargingSessions.id, invoiceSessions.sessionId))
      .where(
        inArray(
          invoiceSessions.invoiceId,
          monthly.map((i) => i.id),
        ),
      )
      .orderBy(asc(chargingSessions.stoppedAt), asc(chargingSessions.id)),
    groupIds.length
      ? db
          .select({ id: accessGroups.id, name: accessGroups.name })
          .from(accessGroups)
          .where(and(eq(accessGroups.businessId, businessId), inArray(accessGroups.id, groupIds)))
      : Promise.resolve([] as { id: string; name: string }[]),
  ]);
  for (const l of links) sessionIds.set(l.invoiceId, [...(sessionIds.get(l.invoiceId) ?? []), l.sessionId]);
  for (const g of groups) groupNames.set(g.id, g.name);
  return { sessionIds, groupNames };
}

export function toInvoiceDto(i: Invoice, c: Covered = { sessionIds: new Map(), groupNames: new Map() }): InvoiceDto {
  const type = i.type as InvoiceType | null;
  return {
    id: i.id,
    type,
    typeLabel: type ? INVOICE_TYPE_LABELS[type] : null,
    pointOfSale: i.pointOfSale,
    number: i.number,
    formattedNumber: i.pointOfSale !== null && i.number !== null ? formatInvoiceNumber(i.pointOfSale, i.number) : null,
    cae: i.cae,
    caeDueDate: i.caeDueDate,
    status: i.status,
    totalCents: i.totalCents,
    netCents: i.netCents,
    vatCents: i.vatCents,
    exemptCents: i.exemptCents,
    receiver: { docType: i.receiverDocType, docNumber: i.receiverDocNumber, name: i.receiverName },
    paymentId: i.paymentId,
    sessionIds: i.billingMonth ? (c.sessionIds.get(i.id) ?? []) : null,
    accessGroup: i.billingMonth ? { id: i.accessGroupId, name: i.accessGroupId ? (c.groupNames.get(i.accessGroupId) ?? null) : null } : null,
    billingMonth: i.billingMonth,
    creditNoteOf: i.creditNoteOf,
    issueDate: i.issueDate,
    serviceFrom: i.serviceFrom,
    serviceTo: i.serviceTo,
    attempts: i.attempts,
    nextAttemptAt: iso(i.nextAttemptAt),
    lastError: i.lastError,
    createdAt: i.createdAt.toISOString(),
  };
}

/** A period's bound as the Argentine calendar date ARCA vouchers carry (UTC−3, no DST). */
const argDate = (d: Date) => new Date(d.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);

function filters(businessId: string, q: { type?: number; status?: Invoice["status"]; from?: Date; to?: Date }, on: "created" | "issued"): SQL[] {
  const where: SQL[] = [eq(invoices.businessId, businessId)];
  if (q.type) where.push(eq(invoices.type, q.type));
  if (q.status) where.push(eq(invoices.status, q.status));
  if (on === "created") {
    if (q.from) where.push(gte(invoices.createdAt, q.from));
    if (q.to) where.push(lt(invoices.createdAt, q.to));
  } else {
    if (q.from) where.push(gte(invoices.issueDate, argDate(q.from)));
    if (q.to) where.push(lt(invoices.issueDate, argDate(q.to)));
  }
  return where;
}

/** The sessions a monthly invoice covers, as the detail lists them. */
async function invoiceSessionDtos(db: Db, invoiceId: string): Promise<InvoiceSessionDto[]> {
  const rows = await db
    .select({ s: chargingSessions, stationName: stations.name, totalCents: invoiceSessions.totalCents, vatRateBp: invoiceSessions.vatRateBp })
    .from(invoiceSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, invoiceSessions.sessionId))
    .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
    .where(eq(invoiceSessions.invoiceId, invoiceId))
    .orderBy(asc(chargingSessions.stoppedAt), asc(chargingSessions.id));
  return rows.map((r) => ({
    id: r.s.id,
    transactionId: r.s.transactionId,
    idTag: r.s.idTag,
    stationName: r.stationName,
    startedAt: r.s.startedAt.toISOString(),
    stoppedAt: iso(r.s.stoppedAt),
    energyWh: r.s.energyWh,
    totalCents: r.totalCents,
    vatRateBp: r.vatRateBp,
  }));
}

/** A monthly invoice's sessions in the sales book: their transaction numbers, the ones the activity screen shows. */
async function csvSessions(db: Db, rows: Invoice[]): Promise<Map<string, string>> {
  const ids = rows.filter((i) => i.billingMonth).map((i) => i.id);
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const links = await db
    .select({ invoiceId: invoiceSessions.invoiceId, tx: chargingSessions.transactionId })
    .from(invoiceSessions)
    .innerJoin(chargingSessions, eq(chargingSessions.id, invoiceSessions.sessionId))
    .where(inArray(invoiceSessions.invoiceId, ids))
    .orderBy(asc(chargingSessions.stoppedAt), asc(chargingSessions.id));
  for (const l of links) out.set(l.invoiceId, out.has(l.invoiceId) ? `${out.get(l.invoiceId)} ${l.tx}` : String(l.tx));
  return out;
}

/** A sales-book row: credit notes subtract, so the book's columns add up to the period's net sales. */
function csvRow(i: Invoice, sessions: string): (string | number | null)[] {
  const sign = isCreditNote(i.type as InvoiceType) ? -1 : 1;
  const pesos = (cents: number) => ((sign * cents) / 100).toFixed(2).replace(".", ",");
  const receiver = i.receiverDocType === 80 ? (i.receiverName ?? "") : "Consumidor Final";
  const doc = i.receiverDocType === 80 ? `CUIT ${formatCuit(i.receiverDocNumber)}` : "";
  return [i.issueDate, INVOICE_TYPE_LABELS[i.type as InvoiceType], i.pointOfSale, i.number, receiver, doc, pesos(i.netCents), pesos(i.vatCents), pesos(i.exemptCents), pesos(i.totalCents), i.cae ?? "", i.caeDueDate ?? "", sessions];
}

/** /Business/Invoice… */
export function invoiceRoutes({ db, invoicing, logger }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const q = await readQuery(c, invoiceListQuery);
    const where = and(...filters(b.id, q, "created"));
    const [rows, [{ total }], pendingCount] = await Promise.all([
      db
        .select()
        .from(invoices)
        .where(where)
        .orderBy(desc(invoices.createdAt), desc(invoices.id))
        .limit(q.pageSize)
        .offset(pageOffset(q.page, q.pageSize)),
      db.select({ total: count() }).from(invoices).where(where),
      invoicing.pendingCount(b.id),
    ]);
    const cov = await covered(db, b.id, rows);
    const body: InvoicePage = { items: rows.map((i) => toInvoiceDto(i, cov)), total, page: q.page, pageSize: q.pageSize, pendingCount };
    return c.json(body);
  });

  // The sales book counts what ARCA authorised, by issue date.
  r.get("/Export.csv", async (c) => {
    const b = tenant(c);
    const q = await readQuery(c, invoiceExportQuery);
    const rows = await db
      .select()
      .from(invoices)
      .where(and(...filters(b.id, { ...q, status: "AUTHORIZED" }, "issued")))
      .orderBy(invoices.issueDate, invoices.type, invoices.pointOfSale, invoices.number)
      .limit(EXPORT_MAX_ROWS + 1);
    const truncated = rows.length > EXPORT_MAX_ROWS;
    const book = rows.slice(0, EXPORT_MAX_ROWS);
    const sessions = await csvSessions(db, book);
    const period = [q.from ? argDate(q.from) : null, q.to ? argDate(new Date(q.to.getTime() - 1)) : null].map((d) => d?.replace(/-/g, "")).filter(Boolean).join("-");
    return c.body(csvDocument(CSV_HEADER, book.map((i) => csvRow(i, sessions.get(i.id) ?? ""))), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="libro-iva-ventas${period ? `-${period}` : ""}.csv"`,
      "X-Export-Rows": String(Math.min(rows.length, EXPORT_MAX_ROWS)),
      "X-Export-Truncated": String(truncated),
    });
  });

  r.get("/:id", async (c) => {
    const id = idParam(c, "id", "El comprobante");
    const [row] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.businessId, tenant(c).id)));
    if (!row) throw notFound("El comprobante");
    const body: InvoiceDetailDto = { ...toInvoiceDto(row, await covered(db, tenant(c).id, [row])), sessions: row.billingMonth ? await invoiceSessionDtos(db, row.id) : [] };
    return c.json(body);
  });

  r.get("/:id/Pdf", async (c) => {
    const id = idParam(c, "id", "El comprobante");
    const pdf = await invoicing.pdf(tenant(c).id, id);
    if (!pdf) throw notFound("El comprobante autorizado");
    return c.body(new Uint8Array(pdf.bytes), 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${pdf.filename}"`,
      "Cache-Control": "private, no-store",
    });
  });

  // The retry is recorded with its audit entry; ARCA is asked once that commits.
  r.post("/:id/Retry", async (c) => {
    const b = tenant(c);
    const id = idParam(c, "id", "El comprobante");
    const row = await invoicing.retry(b.id, id);
    if (!row) {
      const [existing] = await db
        .select({ status: invoices.status })
        .from(invoices)
        .where(and(eq(invoices.id, id), eq(invoices.businessId, b.id)));
      if (!existing) throw notFound("El comprobante");
      throw new ApiError(409, "conflict", "El comprobante ya está autorizado: no hay nada que reintentar.");
    }
    await afterCommit(() => invoicing.issue(row.id).catch((err) => logger.warn({ invoiceId: row.id, err: err instanceof Error ? err.message : String(err) }, "factura: el reintento queda para el barrido")));
    return c.json(toInvoiceDto(row));
  });

  return r;
}
