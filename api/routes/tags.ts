// /Business/Tag — RFID tags (idTag unique per company regardless of case), their CSV export and
// import — and /Business/AccessGroup — which stations a group's tags may use and at which rate.
// The OCPP side reads the same rows (ocpp/store.ts authorizeTag).
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import type { Db } from "#db/client";
import { accessGroups, accessGroupStations, rates, rfidTags, stations, type AccessGroup, type RfidTag } from "#db/schema";
import { can } from "#domain/permissions";
import { formatTagCsv, parseTagCsv, TAG_IMPORT_MAX_BYTES, type TagCsvError } from "#domain/tag-csv";
import { DEFAULT_TIME_ZONE } from "#domain/pricing";
import { recordAudit } from "../audit";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, likePattern, pageOffset, parseSort, readJson, readQuery } from "../http";
import { ApiError, conflict, fieldError, notFound } from "../problem";
import { accessGroupListQuery, tagListQuery } from "#contract/schemas/queries";
import { accessGroupInputSchema, tagInputSchema } from "#contract/schemas/tag";
import type { AccessGroupDto, Page, TagDto, TagImportDto } from "#contract/dto";

const TAG = "La tarjeta";
const GROUP = "El grupo";
export const TAG_TAKEN_MESSAGE = "Ya tenés una tarjeta con ese idTag.";
export const GROUP_TAKEN_MESSAGE = "Ya tenés un grupo con ese nombre.";
export const GROUP_IN_USE_MESSAGE = "El grupo tiene tarjetas. Pasalas a otro grupo (o dejalas sin grupo) antes de eliminarlo.";
/** The export's bound (a company's tags are far fewer; a larger list is cut and says so). */
export const TAG_EXPORT_MAX_ROWS = 50_000;
export const GROUP_RATE_FORBIDDEN_MESSAGE = "Tu rol no permite elegir la tarifa de un grupo: pedíselo a un administrador.";

// ---------------------------------------------------------------------------------------------
// Tags

type TagRow = RfidTag & { groupName: string | null };

function tagDto(row: TagRow): TagDto {
  return {
    id: row.id,
    idTag: row.idTag,
    holderName: row.holderName,
    email: row.email ?? null,
    expiresOn: row.expiresOn ?? null,
    blocked: row.blocked,
    groupId: row.groupId ?? null,
    groupName: row.groupName ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const tagSelect = (db: Db) =>
  db
    .select({ tag: rfidTags, groupName: accessGroups.name })
    .from(rfidTags)
    .leftJoin(accessGroups, eq(accessGroups.id, rfidTags.groupId));

async function findTag(db: Db, businessId: string, id: string): Promise<TagRow> {
  const [row] = await tagSelect(db)
    .where(and(eq(rfidTags.id, id), eq(rfidTags.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(TAG);
  return { ...row.tag, groupName: row.groupName };
}

/** The group must be the company's (another company's id answers like an unknown one). */
async function checkGroup(db: Db, businessId: string, groupId: string | null): Promise<void> {
  if (!groupId) return;
  const [row] = await db
    .select({ id: accessGroups.id })
    .from(accessGroups)
    .where(and(eq(accessGroups.id, groupId), eq(accessGroups.businessId, businessId)))
    .limit(1);
  if (!row) throw fieldError("groupId", "Elegí un grupo de la lista.");
}

async function checkIdTagFree(db: Db, businessId: string, idTag: string, exceptId?: string): Promise<void> {
  const where: SQL[] = [eq(rfidTags.businessId, businessId), sql`lower(${rfidTags.idTag}) = lower(${idTag})`];
  if (exceptId) where.push(sql`${rfidTags.id} <> ${exceptId}`);
  const [row] = await db
    .select({ id: rfidTags.id })
    .from(rfidTags)
    .where(and(...where))
    .limit(1);
  if (row) throw fieldError("idTag", TAG_TAKEN_MESSAGE, 409);
}

const TAG_SORT_COLUMNS = {
  holderName: sql`lower(${rfidTags.holderName})`,
  idTag: sql`lower(${rfidTags.idTag})`,
  expiresOn: rfidTags.expiresOn,
  createdAt: rfidTags.createdAt,
} as const;

function localToday(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: DEFAULT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function tagRoutes({ db, now }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, tagListQuery);
    const where: SQL[] = [eq(rfidTags.businessId, b.id)];
    if (query.q) where.push(or(ilike(rfidTags.idTag, likePattern(query.q)), ilike(rfidTags.holderName, likePattern(query.q)))!);
    if (query.groupId) where.push(eq(rfidTags.groupId, query.groupId));
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = TAG_SORT_COLUMNS[key];
    const [rows, [{ total }]] = await Promise.all([
      tagSelect(db)
        .where(and(...where))
        .orderBy(isDesc ? sql`${col} desc nulls last` : sql`${col} asc nulls last`, asc(rfidTags.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(rfidTags)
        .where(and(...where)),
    ]);
    const body: Page<TagDto> = { items: rows.map((x) => tagDto({ ...x.tag, groupName: x.groupName })), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  // Before /:id so "Export.csv" and "Import" are not taken for ids.
  r.get("/Export.csv", async (c) => {
    const b = tenant(c);
    const rows = await tagSelect(db)
      .where(eq(rfidTags.businessId, b.id))
      .orderBy(asc(sql`lower(${rfidTags.holderName})`), asc(rfidTags.id))
      .limit(TAG_EXPORT_MAX_ROWS + 1);
    const kept = rows.slice(0, TAG_EXPORT_MAX_ROWS);
    const stamp = localToday(now()).replace(/-/g, "");
    return c.body(formatTagCsv(kept.map((x) => ({ ...x.tag, groupName: x.groupName }))), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="tarjetas-${stamp}.csv"`,
      "X-Export-Rows": String(kept.length),
      "X-Export-Truncated": String(rows.length > TAG_EXPORT_MAX_ROWS),
    });
  });

  r.post("/Import", async (c) => {
    const b = tenant(c);
    const type = c.req.header("content-type") ?? "";
    if (type && !/^text\/(csv|plain)\b/i.test(type)) {
      throw new ApiError(415, "unsupported-media-type", "Enviá el archivo como CSV (Content-Type: text/csv).");
    }
    const raw = await c.req.text();
    if (new TextEncoder().encode(raw).length > TAG_IMPORT_MAX_BYTES) throw new ApiError(413, "payload-too-large", "El archivo supera 1 MB.");
    const parsed = parseTagCsv(raw);
    if (!parsed.ok) {
      if (parsed.fileError) throw new ApiError(422, "validation", parsed.fileError, { errors: { file: [parsed.fileError] } });
      throw importErrors(parsed.errors);
    }
    // Groups by name (case-insensitive): a name the company does not have is an error of its rows.
    const groups = await db
      .select({ id: accessGroups.id, name: accessGroups.name })
      .from(accessGroups)
      .where(eq(accessGroups.businessId, b.id));
    const groupByName = new Map(groups.map((g) => [g.name.trim().toLowerCase(), g.id]));
    const rowErrors: TagCsvError[] = [];
    for (const row of parsed.rows) {
      if (row.groupName && !groupByName.has(row.groupName.toLowerCase())) rowErrors.push({ line: row.line, messages: [`grupo: No tenés un grupo llamado «${row.groupName}».`] });
    }
    if (rowErrors.length > 0) throw importErrors(rowErrors);

    // All or nothing: one transaction; an idTag the company has (any case) is updated in place.
    const result = await db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: rfidTags.id, idTag: rfidTags.idTag })
        .from(rfidTags)
        .where(eq(rfidTags.businessId, b.id))
        .for("update");
      const byTag = new Map(existing.map((t) => [t.idTag.toLowerCase(), t.id]));
      const out: TagImportDto = { created: 0, updated: 0 };
      const fresh: (typeof rfidTags.$inferInsert)[] = [];
      for (const row of parsed.rows) {
        const values = {
          idTag: row.idTag,
          holderName: row.holderName,
          email: row.email,
          expiresOn: row.expiresOn,
          blocked: row.blocked,
          groupId: row.groupName ? groupByName.get(row.groupName.toLowerCase())! : null,
        };
        const id = byTag.get(row.idTag.toLowerCase());
        if (id) {
          await tx.update(rfidTags).set(values).where(and(eq(rfidTags.id, id), eq(rfidTags.businessId, b.id)));
          out.updated++;
        } else {
          fresh.push({ ...values, businessId: b.id });
          out.created++;
        }
      }
      for (let i = 0; i < fresh.length; i += 500) await tx.insert(rfidTags).values(fresh.slice(i, i + 500));
      return out;
    });
    await recordAudit({ db }, c, {
      action: "tag.import",
      resourceType: "tag",
      resourceId: null,
      resourceLabel: `${parsed.rows.length} filas`,
      changes: { created: { before: null, after: result.created }, updated: { before: null, after: result.updated } },
    });
    return c.json(result);
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    return c.json(tagDto(await findTag(db, b.id, idParam(c, "id", TAG))));
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, tagInputSchema);
    await checkGroup(db, b.id, input.groupId);
    await checkIdTagFree(db, b.id, input.idTag);
    const [row] = await db
      .insert(rfidTags)
      .values({ ...input, businessId: b.id })
      .returning();
    return c.json(tagDto({ ...row, groupName: null, ...(row.groupId ? { groupName: (await findTag(db, b.id, row.id)).groupName } : {}) }), 201);
  });

  r.put("/:id", async (c) => {
    const b = tenant(c);
    const current = await findTag(db, b.id, idParam(c, "id", TAG));
    const input = await readJson(c, tagInputSchema);
    await checkGroup(db, b.id, input.groupId);
    await checkIdTagFree(db, b.id, input.idTag, current.id);
    await db
      .update(rfidTags)
      .set(input)
      .where(and(eq(rfidTags.id, current.id), eq(rfidTags.businessId, b.id)));
    return c.json(tagDto(await findTag(db, b.id, current.id)));
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findTag(db, b.id, idParam(c, "id", TAG));
    await db.delete(rfidTags).where(and(eq(rfidTags.id, current.id), eq(rfidTags.businessId, b.id)));
    return c.body(null, 204);
  });

  return r;
}

/** 422 with one entry per wrong line: `rows[<line>]` → its messages (in the file's order). */
function importErrors(errors: TagCsvError[]): ApiError {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  const fields = Object.fromEntries(sorted.map((e) => [`rows[${e.line}]`, e.messages]));
  const n = sorted.length;
  return new ApiError(422, "validation", n === 1 ? "No importamos nada: 1 fila tiene errores. Corregila y volvé a subir el archivo." : `No importamos nada: ${n} filas tienen errores. Corregilas y volvé a subir el archivo.`, { errors: fields });
}

// ---------------------------------------------------------------------------------------------
// Access groups

async function groupDtos(db: Db, businessId: string, rows: AccessGroup[]): Promise<AccessGroupDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((g) => g.id);
  const rateIds = [...new Set(rows.map((g) => g.rateId).filter((x): x is string => !!x))];
  const [members, tagCounts, rateNames] = await Promise.all([
    db
      .select({ groupId: accessGroupStations.groupId, id: stations.id, name: stations.name })
      .from(accessGroupStations)
      .innerJoin(stations, and(eq(stations.id, accessGroupStations.stationId), eq(stations.businessId, businessId)))
      .where(inArray(accessGroupStations.groupId, ids))
      .orderBy(asc(sql`lower(${stations.name})`), asc(stations.id)),
    db
      .select({ groupId: rfidTags.groupId, n: count() })
      .from(rfidTags)
      .where(and(eq(rfidTags.businessId, businessId), inArray(rfidTags.groupId, ids)))
      .groupBy(rfidTags.groupId),
    rateIds.length
      ? db
          .select({ id: rates.id, name: rates.name })
          .from(rates)
          .where(and(eq(rates.businessId, businessId), inArray(rates.id, rateIds)))
      : Promise.resolve([] as { id: string; name: string }[]),
  ]);
  const counts = new Map(tagCounts.map((t) => [t.groupId!, t.n]));
  const rateName = new Map(rateNames.map((x) => [x.id, x.name]));
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    allStations: g.allStations,
    stations: g.allStations ? [] : members.filter((m) => m.groupId === g.id).map(({ id, name }) => ({ id, name })),
    rateId: g.rateId ?? null,
    rateName: g.rateId ? (rateName.get(g.rateId) ?? null) : null,
    tagCount: counts.get(g.id) ?? 0,
    billingCuit: g.billingCuit,
    billingName: g.billingName,
    billingTaxCondition: g.billingTaxCondition,
    billingMonthly: g.billingMonthly,
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  }));
}

async function findGroup(db: Db, businessId: string, id: string): Promise<AccessGroup> {
  const [row] = await db
    .select()
    .from(accessGroups)
    .where(and(eq(accessGroups.id, id), eq(accessGroups.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(GROUP);
  return row;
}

/** The stations and the rate must be the company's; a group's rate is a price (rate.write). */
async function checkGroupInput(c: Ctx, db: Db, businessId: string, input: { name: string; stationIds: string[]; rateId: string | null }, current?: AccessGroup): Promise<void> {
  if (input.stationIds.length > 0) {
    const own = await db
      .select({ id: stations.id })
      .from(stations)
      .where(and(eq(stations.businessId, businessId), inArray(stations.id, input.stationIds)));
    if (own.length !== input.stationIds.length) throw fieldError("stationIds", "Elegí estaciones de la lista.");
  }
  if (input.rateId !== (current?.rateId ?? null)) {
    if (!can(c.get("member")?.role, "rate.write")) throw new ApiError(403, "forbidden", GROUP_RATE_FORBIDDEN_MESSAGE, { errors: { rateId: [GROUP_RATE_FORBIDDEN_MESSAGE] } });
    if (input.rateId) {
      const [rate] = await db
        .select({ id: rates.id })
        .from(rates)
        .where(and(eq(rates.id, input.rateId), eq(rates.businessId, businessId)))
        .limit(1);
      if (!rate) throw fieldError("rateId", "Elegí una tarifa de la lista.");
    }
  }
  const where: SQL[] = [eq(accessGroups.businessId, businessId), sql`lower(${accessGroups.name}) = lower(${input.name})`];
  if (current) where.push(sql`${accessGroups.id} <> ${current.id}`);
  const [taken] = await db
    .select({ id: accessGroups.id })
    .from(accessGroups)
    .where(and(...where))
    .limit(1);
  if (taken) throw fieldError("name", GROUP_TAKEN_MESSAGE, 409);
}

const GROUP_SORT_COLUMNS = { name: sql`lower(${accessGroups.name})`, createdAt: accessGroups.createdAt } as const;

/**
 * The group's billing columns from the input. Monthly invoicing covers sessions that end after it
 * is switched on (billing_since), so switching it on never invoices history.
 */
function billingColumns(input: { billingCuit: string | null; billingName: string | null; billingTaxCondition: AccessGroup["billingTaxCondition"]; billingMonthly: boolean }, at: Date, current?: AccessGroup) {
  const switchedOn = input.billingMonthly && !current?.billingMonthly;
  return {
    billingCuit: input.billingCuit,
    billingName: input.billingName,
    billingTaxCondition: input.billingTaxCondition,
    billingMonthly: input.billingMonthly,
    billingSince: switchedOn ? at : (current?.billingSince ?? null),
  };
}

export function accessGroupRoutes({ db, now }: ApiServices) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, accessGroupListQuery);
    const where: SQL[] = [eq(accessGroups.businessId, b.id)];
    if (query.q) where.push(ilike(accessGroups.name, likePattern(query.q)));
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = GROUP_SORT_COLUMNS[key];
    const [rows, [{ total }]] = await Promise.all([
      db
        .select()
        .from(accessGroups)
        .where(and(...where))
        .orderBy(isDesc ? desc(col) : asc(col), asc(accessGroups.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(accessGroups)
        .where(and(...where)),
    ]);
    const body: Page<AccessGroupDto> = { items: await groupDtos(db, b.id, rows), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    const row = await findGroup(db, b.id, idParam(c, "id", GROUP));
    return c.json((await groupDtos(db, b.id, [row]))[0]);
  });

  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, accessGroupInputSchema);
    await checkGroupInput(c, db, b.id, input);
    const row = await db.transaction(async (tx) => {
      const [group] = await tx
        .insert(accessGroups)
        .values({ businessId: b.id, name: input.name, allStations: input.allStations, rateId: input.rateId, ...billingColumns(input, now()) })
        .returning();
      if (input.stationIds.length) await tx.insert(accessGroupStations).values(input.stationIds.map((stationId) => ({ groupId: group.id, stationId })));
      return group;
    });
    return c.json((await groupDtos(db, b.id, [row]))[0], 201);
  });

  r.put("/:id", async (c) => {
    const b = tenant(c);
    const current = await findGroup(db, b.id, idParam(c, "id", GROUP));
    const input = await readJson(c, accessGroupInputSchema);
    await checkGroupInput(c, db, b.id, input, current);
    const row = await db.transaction(async (tx) => {
      const [group] = await tx
        .update(accessGroups)
        .set({ name: input.name, allStations: input.allStations, rateId: input.rateId, ...billingColumns(input, now(), current) })
        .where(and(eq(accessGroups.id, current.id), eq(accessGroups.businessId, b.id)))
        .returning();
      await tx.delete(accessGroupStations).where(eq(accessGroupStations.groupId, current.id));
      if (input.stationIds.length) await tx.insert(accessGroupStations).values(input.stationIds.map((stationId) => ({ groupId: current.id, stationId })));
      return group;
    });
    return c.json((await groupDtos(db, b.id, [row]))[0]);
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findGroup(db, b.id, idParam(c, "id", GROUP));
    const [{ n }] = await db
      .select({ n: count() })
      .from(rfidTags)
      .where(and(eq(rfidTags.businessId, b.id), eq(rfidTags.groupId, current.id)));
    if (n > 0) throw conflict(GROUP_IN_USE_MESSAGE);
    await db.delete(accessGroups).where(and(eq(accessGroups.id, current.id), eq(accessGroups.businessId, b.id)));
    return c.body(null, 204);
  });

  return r;
}
