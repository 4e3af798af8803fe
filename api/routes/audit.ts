// /Business/Audit — the company's audit log, newest first, with filters, and as CSV.
import { and, asc, count, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { auditLog, type AuditEntry } from "#db/schema";
import { csvDocument } from "#domain/csv";
import { AUDIT_RESOURCE_LABELS, auditActionLabel, describeChanges, type AuditResource } from "#domain/audit";
import { ROLE_LABELS, isRole } from "#domain/permissions";
import { DEFAULT_TIME_ZONE } from "#domain/pricing";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { pageOffset, readQuery } from "../http";
import { auditExportQuery, auditQuery } from "#contract/schemas/team";
import type { AuditEntryDto, AuditPage } from "#contract/dto";

export const AUDIT_EXPORT_MAX_ROWS = 10_000;

function toDto(row: AuditEntry): AuditEntryDto {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorEmail: row.actorEmail,
    actorRole: row.actorRole ?? null,
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId ?? null,
    resourceLabel: row.resourceLabel ?? null,
    changes: row.changes ?? {},
    ip: row.ip ?? null,
  };
}

function filters(businessId: string, query: { resource?: string; actor?: string; from?: Date; to?: Date }): SQL[] {
  const where: SQL[] = [eq(auditLog.businessId, businessId)];
  if (query.resource) where.push(eq(auditLog.resourceType, query.resource));
  if (query.actor) where.push(eq(auditLog.actorEmail, query.actor));
  if (query.from) where.push(gte(auditLog.at, query.from));
  if (query.to) where.push(lt(auditLog.at, query.to));
  return where;
}

const stamp = new Intl.DateTimeFormat("es-AR", { timeZone: DEFAULT_TIME_ZONE, dateStyle: "short", timeStyle: "medium" });

export const AUDIT_CSV_HEADER = ["Fecha", "Persona", "Rol", "Acción", "Sección", "Recurso", "Cambios", "Dirección IP"];

function csvRow(x: AuditEntry): string[] {
  return [
    stamp.format(x.at),
    x.actorEmail,
    x.actorRole && isRole(x.actorRole) ? ROLE_LABELS[x.actorRole] : "",
    auditActionLabel(x.action),
    AUDIT_RESOURCE_LABELS[x.resourceType as AuditResource] ?? x.resourceType,
    x.resourceLabel ?? "",
    describeChanges(x.changes ?? {}, x.resourceType as AuditResource).join(" | "),
    x.ip ?? "",
  ];
}

export function auditRoutes({ db, now }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, auditQuery);
    const where = and(...filters(b.id, query));
    const [rows, [{ total }], actors] = await Promise.all([
      db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(auditLog).where(where),
      db.selectDistinct({ email: auditLog.actorEmail }).from(auditLog).where(eq(auditLog.businessId, b.id)).orderBy(asc(auditLog.actorEmail)).limit(500),
    ]);
    const body: AuditPage = { items: rows.map(toDto), total, page: query.page, pageSize: query.pageSize, actors: actors.map((a) => a.email) };
    return c.json(body);
  });

  r.get("/Export.csv", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, auditExportQuery);
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(...filters(b.id, query)))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_EXPORT_MAX_ROWS + 1);
    const truncated = rows.length > AUDIT_EXPORT_MAX_ROWS;
    const file = csvDocument(AUDIT_CSV_HEADER, rows.slice(0, AUDIT_EXPORT_MAX_ROWS).map(csvRow));
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: DEFAULT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now()).replace(/-/g, "");
    return c.body(file, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="auditoria-${day}.csv"`,
      "X-Export-Rows": String(Math.min(rows.length, AUDIT_EXPORT_MAX_ROWS)),
      "X-Export-Truncated": String(truncated),
    });
  });

  return r;
}
