// /Business/Charger — OCPP charge points with their connectors.
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { afterCommit } from "#db/ambient";
import type { Db } from "#db/client";
import {
  chargerBrands,
  chargerEvents,
  chargers,
  chargingSessions,
  connectors,
  connectorTypes,
  rates,
  stations,
  type Charger,
} from "#db/schema";
import { chargePointStatusLabel } from "#domain/ocpp-status";
import { statusBucket } from "#domain/ocpp-status-summary";
import { chargerEventLabel, chargerEventSummary } from "#domain/charger-events";
import { generateOcppPassword, hashOcppPassword } from "#infra/crypto";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, iso, likePattern, pageOffset, pageTotal, parseSort, readJson, readQuery } from "../http";
import { ApiError, conflict, notFound, pgError, type FieldErrors } from "../problem";
import { assignChargersSchema, chargerInputSchema } from "#contract/schemas/charger";
import { showsPrice } from "#contract/schemas/charger-constants";
import { chargerEventQuery, chargerListQuery, chargerOptionsQuery } from "#contract/schemas/queries";
import { bucketCase, emptyBuckets } from "#infra/sql";
import { RateLimiter, rateLimitMessage } from "#infra/rate-limit";
import { answerStatus, commandSchema, SETTING_APPLIED, type ChargerAnswer } from "#ocpp/commands";
import { commandResult } from "#contract/schemas/command-messages";
import type { CommandResult } from "#contract/schemas/command-labels";
import { buildLocalList, getLocalListVersionCall, LOCAL_LIST_MAX, sendLocalListCall, versionFromAnswer } from "#ocpp/local-list";
import { can, ROLE_LABELS } from "#domain/permissions";
import type { ChargerDto, ChargerEventPage, ChargerOptionDto, ChargerWithPasswordDto, ConnectorDto, LocalListResultDto, Page, ReportSummaryDto } from "#contract/dto";

const NOT_FOUND = "El cargador";
/** An identity one of the company's own chargers has: the company knows it already. */
export const OCPP_IDENTITY_OWN_MESSAGE = "Ya tenés un cargador con ese identificador OCPP.";
/**
 * An identity another company's charger has. Identities are the chargers' WebSocket path, so
 * they stay unique across companies; the refusal says no more than "not available" and offers
 * one under the company's own prefix (ADR 0029).
 */
export const ocppIdentityUnavailableMessage = (suggestion: string) => `Ese identificador OCPP no está disponible. Probá con «${suggestion}».`;
/** Refusals of identities other companies have, per company and hour: probing for them is slow. */
export const IDENTITY_PROBES_PER_HOUR = 20;
const identityProbes = new RateLimiter("charger:identity-refused", { limit: IDENTITY_PROBES_PER_HOUR, windowMs: 3_600_000 });

/** The company's prefix (its name's letters and digits, up to 8) before the identity asked for. */
export function suggestOcppIdentity(businessName: string, identity: string): string {
  const prefix =
    businessName
      .normalize("NFD")
      .replace(/[^A-Za-z0-9]/g, "")
      .toUpperCase()
      .slice(0, 8) || "CP";
  return identity.toUpperCase().startsWith(`${prefix}-`) ? `${identity}-2`.slice(0, 48) : `${prefix}-${identity}`.slice(0, 48);
}
const PASSWORD_NOT_APPLIED = {
  rejected: "El cargador rechazó la contraseña nueva: sigue vigente la actual.",
  timeout: "El cargador no respondió a tiempo: sigue vigente la contraseña actual. Probá de nuevo.",
  error: "No pudimos enviarle la contraseña nueva al cargador: sigue vigente la actual. Probá de nuevo.",
} as const;
export const CHARGER_BUSY_MESSAGE = "El cargador tiene una carga en curso. Esperá a que termine para eliminarlo.";

type ChargerRow = Charger & { stationName: string | null; brandName: string | null };

const chargerColumns = {
  charger: chargers,
  stationName: stations.name,
  brandName: chargerBrands.name,
};

function ocppUrl(publicOrigin: string | undefined, identity: string): string | null {
  if (!publicOrigin) return null;
  const ws = publicOrigin.replace(/^http/i, "ws");
  return `${ws}/ocpp/${encodeURIComponent(identity)}`;
}

async function connectorsFor(db: Db, chargerRows: ChargerRow[]): Promise<Map<string, ConnectorDto[]>> {
  const out = new Map<string, ConnectorDto[]>();
  if (chargerRows.length === 0) return out;
  const byId = new Map(chargerRows.map((c) => [c.id, c]));
  const rows = await db
    .select({
      connector: connectors,
      standard: connectorTypes.code,
      standardLabel: connectorTypes.label,
      rateName: rates.name,
    })
    .from(connectors)
    .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
    .leftJoin(rates, eq(rates.id, connectors.rateId))
    .where(inArray(connectors.chargerId, [...byId.keys()]))
    .orderBy(asc(connectors.chargerId), asc(connectors.connectorId));
  for (const r of rows) {
    const k = r.connector;
    const charger = byId.get(k.chargerId)!;
    const dto: ConnectorDto = {
      id: k.id,
      connectorId: k.connectorId,
      standard: r.standard,
      standardLabel: r.standardLabel,
      format: k.format,
      powerType: k.powerType,
      maxPowerKw: Number(k.maxPowerKw),
      rateId: k.rateId ?? null,
      rateName: r.rateName ?? null,
      status: k.status,
      statusLabel: chargePointStatusLabel(k.status),
      bucket: statusBucket(k.status, { online: charger.online, enabled: charger.enabled }),
      errorCode: k.errorCode ?? null,
      statusAt: iso(k.statusAt),
    };
    out.set(k.chargerId, [...(out.get(k.chargerId) ?? []), dto]);
  }
  return out;
}

export async function chargerDtos(db: Db, publicOrigin: string | undefined, rows: ChargerRow[]): Promise<ChargerDto[]> {
  const conns = await connectorsFor(db, rows);
  return rows.map((c) => {
    const list = conns.get(c.id) ?? [];
    const statusSummary = emptyBuckets();
    for (const k of list) statusSummary[k.bucket]++;
    return {
      id: c.id,
      stationId: c.stationId ?? null,
      stationName: c.stationName ?? null,
      name: c.name,
      brandId: c.brandId ?? null,
      brandName: c.brandName ?? null,
      model: c.model ?? null,
      serialNumber: c.serialNumber ?? null,
      ocppIdentity: c.ocppIdentity,
      ocppUrl: ocppUrl(publicOrigin, c.ocppIdentity),
      ocppProtocol: c.ocppProtocol,
      ocppVersion: c.ocppProtocol === "ocpp2.0.1" ? "2.0.1" : "1.6",
      hasPassword: !!c.ocppPasswordHash,
      passwordPending: !!c.ocppPasswordHash && !!c.ocppPreviousPasswordHash,
      enabled: c.enabled,
      heartbeatInterval: c.heartbeatInterval,
      priceDisplay: c.priceDisplay,
      showsPrice: showsPrice(c.priceDisplay, c.ocppProtocol) && !c.priceDisplayRefused,
      priceDisplayRefused: c.priceDisplayRefused,
      vendor: c.vendor ?? null,
      bootModel: c.bootModel ?? null,
      firmwareVersion: c.firmwareVersion ?? null,
      lastBootAt: iso(c.lastBootAt),
      lastHeartbeatAt: iso(c.lastHeartbeatAt),
      online: c.online,
      localListVersion: c.localListVersion ?? null,
      localListAt: iso(c.localListAt),
      connectors: list,
      statusSummary,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  });
}

/**
 * The latest device-model report of a charger: the NotifyReport parts that share the requestId of
 * the newest part (a truncated part keeps its requestId, tbc and list lengths, ocpp/store201.ts).
 */
async function lastReport(db: Db, businessId: string, chargerId: string): Promise<ReportSummaryDto | null> {
  const reports = and(eq(chargerEvents.chargerId, chargerId), eq(chargerEvents.businessId, businessId), eq(chargerEvents.kind, "NotifyReport"));
  const requestIdOf = sql<string | null>`${chargerEvents.payload}->>'requestId'`;
  const [latest] = await db.select({ requestId: requestIdOf }).from(chargerEvents).where(reports).orderBy(desc(chargerEvents.at), desc(chargerEvents.id)).limit(1);
  if (latest?.requestId == null) return null;
  const [agg] = await db
    .select({
      parts: count(),
      variables: sql<number>`coalesce(sum(coalesce(jsonb_array_length(${chargerEvents.payload}->'reportData'), (${chargerEvents.payload}->'lengths'->>'reportData')::int, 0)), 0)`.mapWith(Number),
      complete: sql<boolean>`bool_or(not coalesce((${chargerEvents.payload}->>'tbc')::boolean, false))`.mapWith(Boolean),
      firstAt: sql<Date>`min(${chargerEvents.at})`.mapWith(chargerEvents.at),
      lastAt: sql<Date>`max(${chargerEvents.at})`.mapWith(chargerEvents.at),
    })
    .from(chargerEvents)
    .where(and(reports, sql`${requestIdOf} = ${latest.requestId}`));
  return { requestId: Number(latest.requestId), parts: agg.parts, variables: agg.variables, complete: agg.complete, firstAt: agg.firstAt.toISOString(), lastAt: agg.lastAt.toISOString() };
}

function baseSelect(db: Db) {
  return db
    .select(chargerColumns)
    .from(chargers)
    .leftJoin(stations, eq(stations.id, chargers.stationId))
    .leftJoin(chargerBrands, eq(chargerBrands.id, chargers.brandId));
}

const flatten = (r: { charger: Charger; stationName: string | null; brandName: string | null }): ChargerRow => ({
  ...r.charger,
  stationName: r.stationName,
  brandName: r.brandName,
});

/** The business's charger (with station and brand names) or a 404. */
export async function findCharger(db: Db, businessId: string, id: string): Promise<ChargerRow> {
  const [row] = await baseSelect(db)
    .where(and(eq(chargers.id, id), eq(chargers.businessId, businessId)))
    .limit(1);
  if (!row) throw notFound(NOT_FOUND);
  return flatten(row);
}

type ChargerInput = (typeof chargerInputSchema)["_zod"]["output"];

/** Resolves and checks every reference of the input; throws 422/409 with field errors. */
async function resolveReferences(db: Db, business: { id: string; businessName: string }, input: ChargerInput, selfId?: string) {
  const businessId = business.id;
  const errors: FieldErrors = {};
  const add = (field: string, msg: string) => (errors[field] ??= []).push(msg);

  if (input.stationId) {
    const [s] = await db
      .select({ id: stations.id })
      .from(stations)
      .where(and(eq(stations.id, input.stationId), eq(stations.businessId, businessId)))
      .limit(1);
    if (!s) add("stationId", "La estación no existe.");
  }
  if (input.brandId != null) {
    const [brand] = await db.select({ id: chargerBrands.id }).from(chargerBrands).where(eq(chargerBrands.id, input.brandId)).limit(1);
    if (!brand) add("brandId", "Elegí una marca de la lista.");
  }
  const codes = [...new Set(input.connectors.map((k) => k.standard))];
  const types = await db.select({ id: connectorTypes.id, code: connectorTypes.code }).from(connectorTypes).where(inArray(connectorTypes.code, codes));
  const typeByCode = new Map(types.map((t) => [t.code, t.id]));
  const rateIds = [...new Set(input.connectors.map((k) => k.rateId).filter((x): x is string => !!x))];
  const ownRates = rateIds.length
    ? await db
        .select({ id: rates.id })
        .from(rates)
        .where(and(eq(rates.businessId, businessId), inArray(rates.id, rateIds)))
    : [];
  const rateSet = new Set(ownRates.map((r) => r.id));
  input.connectors.forEach((k, i) => {
    if (!typeByCode.has(k.standard)) add(`connectors[${i}].standard`, "Elegí un tipo de conector de la lista.");
    if (k.rateId && !rateSet.has(k.rateId)) add(`connectors[${i}].rateId`, "La tarifa no existe.");
  });
  if (Object.keys(errors).length > 0) throw new ApiError(422, "validation", "Revisá los datos ingresados.", { errors });

  const [taken] = await db
    .select({ id: chargers.id, businessId: chargers.businessId })
    .from(chargers)
    .where(selfId ? and(eq(chargers.ocppIdentity, input.ocppIdentity), ne(chargers.id, selfId)) : eq(chargers.ocppIdentity, input.ocppIdentity))
    .limit(1);
  if (taken) await refuseIdentity(business, input.ocppIdentity, taken.businessId === businessId);
  return { typeByCode };
}

/** The 409 for an identity in use: plain for the company's own, "not available" plus a suggestion otherwise, rate-limited. */
async function refuseIdentity(business: { id: string; businessName: string }, identity: string, own: boolean): Promise<never> {
  if (own) throw conflict(OCPP_IDENTITY_OWN_MESSAGE, { ocppIdentity: [OCPP_IDENTITY_OWN_MESSAGE] });
  const verdict = await identityProbes.hit(business.id);
  if (!verdict.ok) throw new ApiError(429, "rate-limited", rateLimitMessage(verdict.retryAfterMs), { errors: { ocppIdentity: [rateLimitMessage(verdict.retryAfterMs)] } });
  const message = ocppIdentityUnavailableMessage(suggestOcppIdentity(business.businessName, identity));
  throw conflict(message, { ocppIdentity: [message] });
}

/**
 * Which rate a connector charges is pricing. A role that may edit chargers but not the
 * rates (Técnico) keeps every connector's rate as it is; a new connector starts without one.
 */
async function checkRateAssignment(c: Ctx, db: Db, input: ChargerInput, chargerId?: string) {
  const role = c.get("member")?.role;
  if (!role || can(role, "rate.write")) return;
  const current = chargerId
    ? new Map(
        (await db.select({ connectorId: connectors.connectorId, rateId: connectors.rateId }).from(connectors).where(eq(connectors.chargerId, chargerId))).map((k) => [
          k.connectorId,
          k.rateId ?? null,
        ]),
      )
    : new Map<number, string | null>();
  const changed = input.connectors.some((k) => (k.rateId ?? null) !== (current.get(k.connectorId) ?? null));
  if (changed) throw new ApiError(403, "forbidden", `Tu rol (${ROLE_LABELS[role]}) no permite asignar tarifas a los conectores.`);
}

/** A race lost to another insert of the same identity: refused like the check before it. */
async function identityConflict(err: unknown, business: { id: string; businessName: string }, identity: string): Promise<never> {
  const pg = pgError(err);
  if (pg?.code === "23505" && pg.constraint?.includes("ocpp_identity")) await refuseIdentity(business, identity, false);
  throw err;
}

const SORT_COLUMNS = {
  name: sql`lower(${chargers.name})`,
  ocppIdentity: chargers.ocppIdentity,
  station: sql`lower(${stations.name})`,
  lastHeartbeatAt: chargers.lastHeartbeatAt,
  createdAt: chargers.createdAt,
} as const;

export const LOCAL_LIST_TOO_LONG_MESSAGE = `Tenés más de ${LOCAL_LIST_MAX.toLocaleString("es-AR")} tarjetas: son demasiadas para la lista local de un cargador.`;

function listOutcome(answer: ChargerAnswer): LocalListResultDto["outcome"] {
  return answer.kind === "answer" || answer.kind === "rpc-error" ? "rejected" : answer.kind;
}

/** Why the charger did not take (or tell) its list, in Spanish. */
function localListRefusal(status: string, what: string): string {
  switch (status) {
    case "offline":
      return `El cargador no está conectado (o está deshabilitado): no se pudo enviar ni consultar ${what}.`;
    case "timeout":
      return `El cargador no respondió a tiempo sobre ${what}.`;
    case "NotSupported":
    case "NotImplemented":
      return "El cargador no admite listas locales.";
    case "VersionMismatch":
      return "El cargador rechazó la lista por la versión: consultá su versión y volvé a enviarla.";
    case "Failed":
      return "El cargador no pudo guardar la lista local.";
    case "error":
      // Our side failed (a message of ours the protocol refuses, another node unreachable): logged, not the charger's doing.
      return `No se pudo enviar ni consultar ${what} por un error de Enchufá, no del cargador (ya quedó registrado). Probá de nuevo más tarde.`;
    default:
      return `El cargador no aceptó ${what} (${status}).`;
  }
}

export function chargerRoutes(services: ApiServices) {
  const r = new Hono<AppEnv>();

  // Registered in this order, which is the order routes match in: "/Options" and "/Assign" before "/:id".
  chargerReadRoutes(r, services);
  chargerWriteRoutes(r, services);
  chargerCallRoutes(r, services);
  chargerEventRoutes(r, services);

  return r;
}

/** The list (filters, sort, page), the choices, assigning chargers to a station, and one charger. */
function chargerReadRoutes(r: Hono<AppEnv>, { db, publicOrigin, companyCache }: ApiServices) {
  r.get("/", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, chargerListQuery);
    const where: SQL[] = [eq(chargers.businessId, b.id)];
    if (query.q) {
      const p = likePattern(query.q);
      where.push(or(ilike(chargers.name, p), ilike(chargers.ocppIdentity, p), ilike(chargers.serialNumber, p), ilike(chargers.model, p))!);
    }
    if (query.stationId) where.push(eq(chargers.stationId, query.stationId));
    if (query.unassigned === true) where.push(isNull(chargers.stationId));
    if (query.unassigned === false) where.push(sql`${chargers.stationId} is not null`);
    if (query.status === "offline") {
      where.push(
        sql`(not (${chargers.online} and ${chargers.enabled}) or exists (select 1 from ${connectors} where ${connectors.chargerId} = ${chargers.id} and ${connectors.status} = 'Unavailable'))`,
      );
    } else if (query.status) {
      where.push(sql`exists (select 1 from ${connectors} where ${connectors.chargerId} = ${chargers.id} and ${bucketCase} = ${query.status})`);
    }
    const { key, desc: isDesc } = parseSort(query.sort);
    const col = SORT_COLUMNS[key];
    const order = isDesc ? sql`${col} desc nulls last` : sql`${col} asc nulls last`;
    const [rows, [{ total }]] = await Promise.all([
      baseSelect(db)
        .where(and(...where))
        .orderBy(order, asc(chargers.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db
        .select({ total: count() })
        .from(chargers)
        .where(and(...where)),
    ]);
    const body: Page<ChargerDto> = {
      items: await chargerDtos(db, publicOrigin, rows.map(flatten)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
    return c.json(body);
  });

  // The chargers as choices (activity filters): id, name and station, without connectors.
  r.get("/Options", async (c) => {
    const b = tenant(c);
    const query = await readQuery(c, chargerOptionsQuery);
    const where = and(eq(chargers.businessId, b.id), query.stationId ? eq(chargers.stationId, query.stationId) : undefined);
    // Kept per company like the station options (api/company-cache.ts).
    const key = `charger-options|${query.stationId ?? ""}|${query.page}|${query.pageSize}`;
    const body = await companyCache.get(b.id, key, async (): Promise<Page<ChargerOptionDto>> => {
      const items = await db
        .select({ id: chargers.id, name: chargers.name, stationId: chargers.stationId, stationName: stations.name })
        .from(chargers)
        .leftJoin(stations, eq(stations.id, chargers.stationId))
        .where(where)
        .orderBy(asc(sql`lower(${chargers.name})`), asc(chargers.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize));
      const total = await pageTotal(items, query, async () => (await db.select({ total: count() }).from(chargers).where(where))[0].total);
      return { items, total, page: query.page, pageSize: query.pageSize };
    });
    return c.json(body);
  });

  r.post("/Assign", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, assignChargersSchema);
    const [station] = await db
      .select({ id: stations.id })
      .from(stations)
      .where(and(eq(stations.id, input.stationId), eq(stations.businessId, b.id)))
      .limit(1);
    if (!station) throw new ApiError(422, "validation", "Revisá los datos ingresados.", { errors: { stationId: ["La estación no existe."] } });
    const ids = [...new Set(input.chargerIds.map((x) => x.toLowerCase()))];
    const updated = await db.transaction(async (tx) => {
      const rows = await tx
        .update(chargers)
        .set({ stationId: station.id })
        .where(and(eq(chargers.businessId, b.id), inArray(chargers.id, ids)))
        .returning({ id: chargers.id });
      // All or nothing: an id that is not one of the business's chargers undoes the batch.
      if (rows.length !== ids.length) {
        throw new ApiError(422, "validation", "Revisá los datos ingresados.", { errors: { chargerIds: ["Uno o más cargadores no existen."] } });
      }
      return rows;
    });
    const rows = await baseSelect(db)
      .where(and(eq(chargers.businessId, b.id), inArray(chargers.id, updated.map((u) => u.id))))
      .orderBy(sql`lower(${chargers.name})`, asc(chargers.id));
    return c.json({ stationId: station.id, items: await chargerDtos(db, publicOrigin, rows.map(flatten)) });
  });

  r.get("/:id", async (c) => {
    const b = tenant(c);
    const row = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const [dto] = await chargerDtos(db, publicOrigin, [row]);
    return c.json(dto);
  });
}

/** Creating a charger (its OCPP password shown once) and updating it with its connectors. */
function chargerWriteRoutes(r: Hono<AppEnv>, services: ApiServices) {
  const { db, publicOrigin } = services;
  r.post("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, chargerInputSchema);
    await checkRateAssignment(c, db, input);
    const { typeByCode } = await resolveReferences(db, b, input);
    const password = generateOcppPassword();
    const ocppPasswordHash = await hashOcppPassword(password);
    const { connectors: connectorInputs, ...fields } = input;
    let id: string;
    try {
      id = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(chargers)
          .values({ ...fields, model: fields.model ?? null, serialNumber: fields.serialNumber ?? null, businessId: b.id, ocppPasswordHash })
          .returning({ id: chargers.id });
        await tx.insert(connectors).values(
          connectorInputs.map((k) => ({
            chargerId: created.id,
            connectorId: k.connectorId,
            connectorTypeId: typeByCode.get(k.standard)!,
            format: k.format,
            powerType: k.powerType,
            maxPowerKw: k.maxPowerKw,
            rateId: k.rateId,
          })),
        );
        return created.id;
      });
    } catch (err) {
      await identityConflict(err, b, input.ocppIdentity);
      throw err;
    }
    const [dto] = await chargerDtos(db, publicOrigin, [await findCharger(db, b.id, id)]);
    const body: ChargerWithPasswordDto = { ...dto, ocppPassword: password };
    return c.json(body, 201);
  });

  r.put("/:id", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const input = await readJson(c, chargerInputSchema);
    await checkRateAssignment(c, db, input, current.id);
    const { typeByCode } = await resolveReferences(db, b, input, current.id);
    const { connectors: connectorInputs, ...fields } = input;
    try {
      await db.transaction(async (tx) => {
        await tx
          .update(chargers)
          // Saving the price setting asks a charger that refused the price once more (a new firmware may show it).
          .set({ ...fields, model: fields.model ?? null, serialNumber: fields.serialNumber ?? null, ...(fields.priceDisplay !== current.priceDisplay ? { priceDisplayRefused: false } : {}) })
          .where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
        const keep = connectorInputs.map((k) => k.connectorId);
        // Connectors no longer listed go away (their sessions stay, see the schema).
        await tx.delete(connectors).where(and(eq(connectors.chargerId, current.id), notInArray(connectors.connectorId, keep)));
        for (const k of connectorInputs) {
          const values = {
            connectorTypeId: typeByCode.get(k.standard)!,
            format: k.format,
            powerType: k.powerType,
            maxPowerKw: k.maxPowerKw,
            rateId: k.rateId,
          };
          // Upsert by (charger, connectorId): live status and history stay with the connector.
          await tx
            .insert(connectors)
            .values({ chargerId: current.id, connectorId: k.connectorId, ...values })
            .onConflictDoUpdate({ target: [connectors.chargerId, connectors.connectorId], set: values });
        }
      });
    } catch (err) {
      await identityConflict(err, b, input.ocppIdentity);
      throw err;
    }
    // Its rates or its price setting may have changed: the charger's screen gets the price again.
    await afterCommit(() => void services.ocpp?.refreshPrices?.({ chargerId: current.id }).catch(() => {}));
    const [dto] = await chargerDtos(db, publicOrigin, [await findCharger(db, b.id, current.id)]);
    return c.json(dto);
  });
}

/** What is sent to the charger over OCPP: a new password, a command, the local authorization list. */
function chargerCallRoutes(r: Hono<AppEnv>, { db, publicOrigin, ocpp, logger, now }: ApiServices) {
  r.post("/:id/RotatePassword", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const password = generateOcppPassword();
    const ocppPasswordHash = await hashOcppPassword(password);
    // A connected charger gets the password over OCPP and the new hash is applied only once it
    // accepts it (otherwise it would be locked out at its next connection). A charger that is
    // not connected keeps today's manual rotation: the operator loads the password in it.
    let passwordDelivery: "charger" | "manual" = "manual";
    if (ocpp?.sendPassword && current.online && current.enabled) {
      const delivery = await ocpp.sendPassword({ id: current.id, ocppIdentity: current.ocppIdentity }, password);
      logger.info({ chargerId: current.id, outcome: delivery.outcome, status: delivery.status }, "OCPP: contraseña nueva enviada al cargador");
      if (delivery.outcome === "accepted") passwordDelivery = "charger";
      else if (delivery.outcome !== "offline") throw conflict(PASSWORD_NOT_APPLIED[delivery.outcome]);
    }
    // "Accepted" only says the charger stored it: until it connects with it, the password it last
    // used (the one before, or one still pending from an earlier rotation) keeps opening (ADR 0031).
    // A manual rotation has nothing to wait for: only the new password opens.
    const ocppPreviousPasswordHash = passwordDelivery === "charger" ? (current.ocppPreviousPasswordHash ?? current.ocppPasswordHash) : null;
    await db
      .update(chargers)
      .set({ ocppPasswordHash, ocppPreviousPasswordHash })
      .where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
    const [dto] = await chargerDtos(db, publicOrigin, [await findCharger(db, b.id, current.id)]);
    const body: ChargerWithPasswordDto = { ...dto, ocppPassword: password, passwordDelivery };
    return c.json(body);
  });

  // A command to the charger over OCPP; the answer (accepted, rejected, timeout, offline) is
  // a 200 either way: it describes the charger, not this request.
  r.post("/:id/Command", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const command = await readJson(c, commandSchema);
    if (!ocpp) return c.json(commandResult({ command: command.command, outcome: "offline" }));
    if (!current.enabled) {
      return c.json({ command: command.command, outcome: "rejected", message: "El cargador está deshabilitado: habilitalo para enviarle comandos." } satisfies CommandResult);
    }
    const reply = await ocpp.sendCommand({ id: current.id, ocppIdentity: current.ocppIdentity }, command);
    logger.info({ chargerId: current.id, command: command.command, outcome: reply.outcome }, "comando OCPP enviado");
    // A heartbeat interval the charger took is the charger's from now on: its next BootNotification
    // answer keeps it, and the offline sweep waits for it (2× the interval).
    const heartbeat = command.command === "ChangeConfiguration" ? reply.settings?.heartbeatInterval : undefined;
    if (heartbeat && SETTING_APPLIED.has(heartbeat.status) && command.command === "ChangeConfiguration" && command.heartbeatInterval !== undefined) {
      await db
        .update(chargers)
        .set({ heartbeatInterval: command.heartbeatInterval })
        .where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
    }
    return c.json(commandResult(reply));
  });

  // The company's tags as the charger's local authorization list (Full, ADR 0018),
  // one version above the one it holds; its answer is a 200 either way, like a command's.
  r.post("/:id/LocalList", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const list = await buildLocalList(db, b.id, current.id, now());
    if (!list) throw notFound(NOT_FOUND);
    if (list.tooMany) throw conflict(LOCAL_LIST_TOO_LONG_MESSAGE);
    const version = Math.max(current.localListVersion ?? 0, 0) + 1;
    const answer: ChargerAnswer = ocpp?.callCharger && current.enabled ? await ocpp.callCharger(current, (protocol) => sendLocalListCall(protocol, version, list.entries)) : { kind: "offline" };
    const status = answerStatus(answer);
    const n = list.entries.length;
    const tags = n === 1 ? "1 tarjeta" : `${n.toLocaleString("es-AR")} tarjetas`;
    if (status === "Accepted") {
      await db
        .update(chargers)
        .set({ localListVersion: version, localListAt: now() })
        .where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
      return c.json({ outcome: "accepted", status, version, entries: n, message: `El cargador guardó la lista local (versión ${version}, ${tags}).` } satisfies LocalListResultDto);
    }
    return c.json({ outcome: listOutcome(answer), status, version: current.localListVersion ?? null, entries: n, message: localListRefusal(status, "la lista local") } satisfies LocalListResultDto);
  });

  r.post("/:id/LocalList/Version", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const answer: ChargerAnswer = ocpp?.callCharger && current.enabled ? await ocpp.callCharger(current, getLocalListVersionCall) : { kind: "offline" };
    const version = answer.kind === "answer" ? versionFromAnswer(answer.response) : undefined;
    if (version === undefined) {
      const status = answerStatus(answer);
      return c.json({ outcome: listOutcome(answer), status, version: current.localListVersion ?? null, message: localListRefusal(status, "la versión de su lista local") } satisfies LocalListResultDto);
    }
    await db
      .update(chargers)
      .set({ localListVersion: version, localListAt: now() })
      .where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
    const message = version === -1 ? "El cargador no admite listas locales." : version === 0 ? "El cargador no tiene lista local." : `El cargador tiene la lista local versión ${version}.`;
    return c.json({ outcome: version === -1 ? "rejected" : "accepted", status: "Accepted", version, message } satisfies LocalListResultDto);
  });
}

/** What the charger reported about itself, and deleting it. */
function chargerEventRoutes(r: Hono<AppEnv>, { db }: ApiServices) {
  // What the charger reported about itself (charger_events), newest first, with the latest report.
  r.get("/:id/Event", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const query = await readQuery(c, chargerEventQuery);
    const where = and(eq(chargerEvents.chargerId, current.id), eq(chargerEvents.businessId, b.id));
    const [rows, [{ total }], report] = await Promise.all([
      db
        .select({ id: chargerEvents.id, kind: chargerEvents.kind, summary: chargerEvents.summary, at: chargerEvents.at })
        .from(chargerEvents)
        .where(where)
        .orderBy(desc(chargerEvents.at), desc(chargerEvents.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(chargerEvents).where(where),
      lastReport(db, b.id, current.id),
    ]);
    const body: ChargerEventPage = {
      items: rows.map((e) => ({ id: e.id, kind: e.kind, kindLabel: chargerEventLabel(e.kind), summary: chargerEventSummary(e.kind, e.summary), at: e.at.toISOString() })),
      total,
      page: query.page,
      pageSize: query.pageSize,
      lastReport: report,
    };
    return c.json(body);
  });

  r.delete("/:id", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const [{ open }] = await db
      .select({ open: count() })
      .from(chargingSessions)
      .where(and(eq(chargingSessions.chargerId, current.id), inArray(chargingSessions.status, ["ACTIVE", "IDLE"])));
    if (open > 0) throw conflict(CHARGER_BUSY_MESSAGE);
    await db.delete(chargers).where(and(eq(chargers.id, current.id), eq(chargers.businessId, b.id)));
    return c.body(null, 204);
  });
}
