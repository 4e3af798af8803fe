// /Business/Charger/{id}/Message, /Firmware and /Diagnostics: a charger's recent OCPP
// messages (with a CSV export), firmware updates (one charger or every charger of its model) with
// their progress, and diagnostics files the charger uploads to Enchufá. And the upload itself:
// /ChargerUpload/{diagnosticsId}/{token}, where a charger PUTs or POSTs the file it was asked for.
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, asc, count, desc, eq, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { chargerDiagnostics, chargers, ocppMessages } from "#db/schema";
import type { Db } from "#db/client";
import { csvDocument } from "#domain/csv";
import { DEFAULT_TIME_ZONE } from "#domain/pricing";
import { OCPP_MESSAGES_KEPT } from "#ocpp/message-log";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { idParam, pageOffset, readJson, readQuery } from "../http";
import { ApiError, notFound } from "../problem";
import { findCharger } from "./chargers";
import type { ChargerFirmwareDto, DiagnosticsDto, DiagnosticsRequestedDto, FirmwareUpdateDto, OcppMessageDto, Page } from "#contract/dto";
import { diagnosticsQuery, firmwareUpdateSchema, diagnosticsRequestSchema, ocppMessageQuery } from "#contract/schemas/maintenance";
import { firmwareStatusLabel, maintenanceResult } from "#contract/schemas/command-messages";
import type { MaintenanceResult } from "#contract/schemas/command-labels";

const NOT_FOUND = "El cargador";
/** A diagnostics file larger than this is refused (413). */
export const DIAGNOSTICS_MAX_BYTES = 20 * 1024 * 1024;
/** Diagnostics kept per charger: older ones are deleted when a new one is asked for. */
export const DIAGNOSTICS_KEPT = 10;
/** How long the upload URL given to the charger works. */
const UPLOAD_VALID_MS = 24 * 60 * 60 * 1000;
/** Chargers of one model updated at once, at most. */
export const FIRMWARE_MODEL_MAX = 200;

const DIRECTION_LABELS = { IN: "Recibido", OUT: "Enviado" } as const;
const TYPE_LABELS: Record<number, string> = { 2: "Llamada", 3: "Respuesta", 4: "Error" };
export const DIAGNOSTICS_STATUS_LABELS: Record<string, string> = {
  REQUESTED: "Pedido",
  REJECTED: "Rechazado",
  UPLOADING: "Subiendo",
  UPLOADED: "Recibido",
  FAILED: "Falló la subida",
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const dateFmt = new Intl.DateTimeFormat("es-AR", { timeZone: DEFAULT_TIME_ZONE, day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

function messageDto(m: typeof ocppMessages.$inferSelect): OcppMessageDto {
  return {
    seq: m.seq,
    at: m.at.toISOString(),
    direction: m.direction,
    directionLabel: DIRECTION_LABELS[m.direction],
    messageType: m.messageType,
    messageTypeLabel: TYPE_LABELS[m.messageType] ?? "Ilegible",
    messageId: m.messageId,
    action: m.action,
    payload: m.payload,
  };
}

function diagnosticsDto(d: Omit<typeof chargerDiagnostics.$inferSelect, "content" | "tokenHash">): DiagnosticsDto {
  return {
    id: d.id,
    status: d.status,
    statusLabel: DIAGNOSTICS_STATUS_LABELS[d.status] ?? d.status,
    chargerStatus: d.chargerStatus,
    fileName: d.fileName,
    sizeBytes: d.sizeBytes,
    requestedAt: d.requestedAt.toISOString(),
    uploadedAt: d.uploadedAt?.toISOString() ?? null,
  };
}

const diagnosticsColumns = {
  id: chargerDiagnostics.id,
  businessId: chargerDiagnostics.businessId,
  chargerId: chargerDiagnostics.chargerId,
  requestId: chargerDiagnostics.requestId,
  status: chargerDiagnostics.status,
  chargerStatus: chargerDiagnostics.chargerStatus,
  fileName: chargerDiagnostics.fileName,
  contentType: chargerDiagnostics.contentType,
  sizeBytes: chargerDiagnostics.sizeBytes,
  requestedAt: chargerDiagnostics.requestedAt,
  uploadedAt: chargerDiagnostics.uploadedAt,
  createdAt: chargerDiagnostics.createdAt,
  updatedAt: chargerDiagnostics.updatedAt,
};

/** The origin the charger reaches Enchufá at: PUBLIC_URL, else the request's own. */
function originOf(c: Ctx, publicOrigin: string | undefined): string {
  return publicOrigin ?? new URL(c.req.url).origin;
}

/** The company's chargers of the same brand and model as `current` (it among them), by name, at most FIRMWARE_MODEL_MAX. */
function modelChargers(db: Db, businessId: string, current: { brandId: number | null; model: string | null }) {
  return db
    .select()
    .from(chargers)
    .where(and(eq(chargers.businessId, businessId), sameModel(current)))
    .orderBy(asc(sql`lower(${chargers.name})`), asc(chargers.id))
    .limit(FIRMWARE_MODEL_MAX);
}

export function chargerMaintenanceRoutes(services: ApiServices) {
  const r = new Hono<AppEnv>();

  messageRoutes(r, services);
  firmwareRoutes(r, services);
  diagnosticsRoutes(r, services);

  return r;
}

/** The charger's recent OCPP messages, as a page and as a CSV file. */
function messageRoutes(r: Hono<AppEnv>, { db }: ApiServices) {
  // The recent OCPP messages, newest first (at most OCPP_MESSAGES_KEPT exist per charger).
  r.get("/:id/Message", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const query = await readQuery(c, ocppMessageQuery);
    const where: SQL[] = [eq(ocppMessages.chargerId, current.id), eq(ocppMessages.businessId, b.id)];
    if (query.direction) where.push(eq(ocppMessages.direction, query.direction));
    const [rows, [{ total }]] = await Promise.all([
      db
        .select()
        .from(ocppMessages)
        .where(and(...where))
        .orderBy(desc(ocppMessages.seq))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(ocppMessages).where(and(...where)),
    ]);
    const body: Page<OcppMessageDto> = { items: rows.map(messageDto), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  r.get("/:id/Message/Export.csv", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const rows = await db
      .select()
      .from(ocppMessages)
      .where(and(eq(ocppMessages.chargerId, current.id), eq(ocppMessages.businessId, b.id)))
      .orderBy(desc(ocppMessages.seq))
      .limit(OCPP_MESSAGES_KEPT);
    const header = ["Fecha y hora", "Sentido", "Tipo", "Acción", "Id del mensaje", "Contenido"];
    const file = csvDocument(
      header,
      rows.map((m) => [dateFmt.format(m.at).replace(",", ""), DIRECTION_LABELS[m.direction], TYPE_LABELS[m.messageType] ?? "Ilegible", m.action ?? "", m.messageId, m.payload]),
    );
    const safeIdentity = current.ocppIdentity.replace(/[^A-Za-z0-9._-]/g, "_");
    return c.body(file, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="mensajes-ocpp-${safeIdentity}.csv"`,
      "X-Export-Rows": String(rows.length),
    });
  });
}

/** The firmware: its state, and an update sent to the charger or to its whole model. */
function firmwareRoutes(r: Hono<AppEnv>, { db, ocpp, logger, now }: ApiServices) {
  // Firmware: the charger's state, and its model's chargers with theirs (the progress of an
  // update sent to the whole model).
  r.get("/:id/Firmware", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const siblings = current.model ? await modelChargers(db, b.id, current) : [current];
    const row = (x: typeof chargers.$inferSelect) => ({
      id: x.id,
      name: x.name,
      online: x.online,
      firmwareVersion: x.firmwareVersion,
      location: x.firmwareLocation,
      requestedAt: x.firmwareRequestedAt?.toISOString() ?? null,
      status: x.firmwareStatus,
      statusLabel: firmwareStatusLabel(x.firmwareStatus),
      statusAt: x.firmwareStatusAt?.toISOString() ?? null,
    });
    const body: ChargerFirmwareDto = {
      charger: row(current),
      model: current.model ? { brandName: current.brandName, model: current.model, chargers: siblings.map(row) } : null,
    };
    return c.json(body);
  });

  r.post("/:id/Firmware", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const input = await readJson(c, firmwareUpdateSchema);
    if (input.allOfModel && !current.model) {
      throw new ApiError(422, "validation", "Revisá los datos.", { errors: { allOfModel: ["Este cargador no tiene modelo: cargalo en sus datos para actualizar a todos los de su modelo."] } });
    }
    const targets = input.allOfModel ? await modelChargers(db, b.id, current) : [current];
    const retrieveAt = input.retrieveAt ?? now();
    const results: FirmwareUpdateDto["results"] = [];
    for (const t of targets) {
      const result: MaintenanceResult = !t.enabled
        ? { kind: "UpdateFirmware", outcome: "rejected", message: "El cargador está deshabilitado: habilitalo para enviarle comandos." }
        : maintenanceResult(
            ocpp?.sendMaintenance
              ? await ocpp.sendMaintenance({ id: t.id, ocppIdentity: t.ocppIdentity }, { kind: "UpdateFirmware", location: input.location, retrieveAt, requestId: randomInt(1, 2_147_483_647) })
              : { kind: "UpdateFirmware", outcome: "offline" },
          );
      if (result.outcome === "accepted") {
        await db
          .update(chargers)
          .set({ firmwareLocation: input.location, firmwareRequestedAt: now(), firmwareStatus: null, firmwareStatusAt: null })
          .where(and(eq(chargers.id, t.id), eq(chargers.businessId, b.id)));
      }
      results.push({ chargerId: t.id, name: t.name, outcome: result.outcome, message: result.message });
    }
    logger.info({ chargerId: current.id, chargers: results.length, accepted: results.filter((x) => x.outcome === "accepted").length }, "actualización de firmware enviada");
    const accepted = results.filter((x) => x.outcome === "accepted").length;
    const message =
      results.length === 1
        ? results[0].message
        : accepted === results.length
          ? `Los ${results.length} cargadores del modelo aceptaron «Actualizar firmware».`
          : `Aceptaron «Actualizar firmware» ${accepted} de ${results.length} cargadores del modelo: mirá el detalle por cargador.`;
    const body: FirmwareUpdateDto = { outcome: accepted === results.length ? "accepted" : accepted > 0 ? "partial" : "rejected", message, results };
    return c.json(body);
  });
}

/** Diagnostics: the requests, asking the charger for a file, and downloading it. */
function diagnosticsRoutes(r: Hono<AppEnv>, { db, ocpp, now, publicOrigin }: ApiServices) {
  r.get("/:id/Diagnostics", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const query = await readQuery(c, diagnosticsQuery);
    const where = and(eq(chargerDiagnostics.chargerId, current.id), eq(chargerDiagnostics.businessId, b.id));
    const [rows, [{ total }]] = await Promise.all([
      db
        .select(diagnosticsColumns)
        .from(chargerDiagnostics)
        .where(where)
        .orderBy(desc(chargerDiagnostics.requestedAt), desc(chargerDiagnostics.id))
        .limit(query.pageSize)
        .offset(pageOffset(query.page, query.pageSize)),
      db.select({ total: count() }).from(chargerDiagnostics).where(where),
    ]);
    const body: Page<DiagnosticsDto> = { items: rows.map(diagnosticsDto), total, page: query.page, pageSize: query.pageSize };
    return c.json(body);
  });

  // Asks the charger for its diagnostics, to be uploaded to a URL that works for this request only.
  r.post("/:id/Diagnostics", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const input = await readJson(c, diagnosticsRequestSchema);
    const kind = "GetDiagnostics" as const;
    if (!current.enabled) {
      const body: DiagnosticsRequestedDto = { kind, outcome: "rejected", message: "El cargador está deshabilitado: habilitalo para enviarle comandos.", diagnostics: null };
      return c.json(body);
    }
    const token = randomBytes(24).toString("base64url");
    const requestId = randomInt(1, 2_147_483_647);
    const t = now();
    const [created] = await db
      .insert(chargerDiagnostics)
      .values({ businessId: b.id, chargerId: current.id, requestId, tokenHash: sha256(token), requestedAt: t })
      .returning(diagnosticsColumns);
    const location = `${originOf(c, publicOrigin)}/api/ChargerUpload/${created.id}/${token}`;
    const result = maintenanceResult(
      ocpp?.sendMaintenance
        ? await ocpp.sendMaintenance({ id: current.id, ocppIdentity: current.ocppIdentity }, { kind, location, requestId, from: input.from, to: input.to })
        : { kind, outcome: "offline" },
    );
    if (result.outcome !== "accepted") {
      // Nothing will come: the request is not kept (a refusal is kept, so the screen shows it).
      if (result.outcome === "rejected") {
        await db.update(chargerDiagnostics).set({ status: "REJECTED", chargerStatus: result.status ?? null }).where(eq(chargerDiagnostics.id, created.id));
      } else {
        await db.delete(chargerDiagnostics).where(eq(chargerDiagnostics.id, created.id));
      }
    } else if (result.fileName) {
      await db.update(chargerDiagnostics).set({ fileName: result.fileName.slice(0, 255) }).where(eq(chargerDiagnostics.id, created.id));
    }
    // Only the latest DIAGNOSTICS_KEPT are kept per charger.
    const keep = db
      .select({ id: chargerDiagnostics.id })
      .from(chargerDiagnostics)
      .where(eq(chargerDiagnostics.chargerId, current.id))
      .orderBy(desc(chargerDiagnostics.requestedAt), desc(chargerDiagnostics.id))
      .limit(DIAGNOSTICS_KEPT);
    await db.delete(chargerDiagnostics).where(and(eq(chargerDiagnostics.chargerId, current.id), notInArray(chargerDiagnostics.id, keep)));
    const [row] = await db.select(diagnosticsColumns).from(chargerDiagnostics).where(eq(chargerDiagnostics.id, created.id));
    const body: DiagnosticsRequestedDto = { ...result, kind, diagnostics: row ? diagnosticsDto(row) : null };
    return c.json(body);
  });

  r.get("/:id/Diagnostics/:diagnosticsId/File", async (c) => {
    const b = tenant(c);
    const current = await findCharger(db, b.id, idParam(c, "id", NOT_FOUND));
    const diagnosticsId = idParam(c, "diagnosticsId", "El diagnóstico");
    const [row] = await db
      .select({ fileName: chargerDiagnostics.fileName, contentType: chargerDiagnostics.contentType, content: chargerDiagnostics.content })
      .from(chargerDiagnostics)
      .where(and(eq(chargerDiagnostics.id, diagnosticsId), eq(chargerDiagnostics.chargerId, current.id), eq(chargerDiagnostics.businessId, b.id), eq(chargerDiagnostics.status, "UPLOADED")));
    if (!row?.content) throw notFound("El archivo de diagnóstico");
    const name = (row.fileName ?? `diagnostico-${current.ocppIdentity}.bin`).replace(/[^A-Za-z0-9._-]/g, "_");
    return c.body(new Uint8Array(row.content), 200, {
      // Served as a download only: whatever the charger sent is never rendered by the browser.
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
    });
  });
}

/** Same brand and model (case-insensitive) as the charger. */
function sameModel(current: { brandId: number | null; model: string | null }): SQL {
  return and(current.brandId === null ? isNull(chargers.brandId) : eq(chargers.brandId, current.brandId), sql`lower(${chargers.model}) = lower(${current.model})`)!;
}

// ---------------------------------------------------------------------------------------------
// The charger's upload

/** The file from a multipart body (its first file part), or the raw body as it came. */
async function readUpload(c: Ctx): Promise<{ bytes: Uint8Array; fileName: string | null; contentType: string | null } | "too-large"> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > DIAGNOSTICS_MAX_BYTES + 64 * 1024) return "too-large";
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const form = await c.req.formData();
    for (const value of form.values()) {
      if (typeof value !== "string") {
        const bytes = new Uint8Array(await value.arrayBuffer());
        if (bytes.byteLength > DIAGNOSTICS_MAX_BYTES) return "too-large";
        return { bytes, fileName: value.name || null, contentType: value.type || null };
      }
    }
    return { bytes: new Uint8Array(), fileName: null, contentType: null };
  }
  // Read as a stream, so a body without a length cannot grow past the cap in memory.
  const reader = c.req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DIAGNOSTICS_MAX_BYTES) {
        await reader.cancel();
        return "too-large";
      }
      chunks.push(value);
    }
  }
  return { bytes: Buffer.concat(chunks), fileName: null, contentType: type || null };
}

const uploadParams = z.object({ id: z.uuid(), token: z.string().min(16).max(64) });

/**
 * PUT or POST /ChargerUpload/{diagnosticsId}/{token}[/{fileName}]: the charger's diagnostics.
 * The token is the credential Enchufá gave this charger for this request (in the URL it sent in
 * GetDiagnostics/GetLog: chargers send nothing else on an upload); it works once, for a day.
 */
export function chargerUploadRoutes({ db, logger, now }: ApiServices) {
  const r = new Hono<AppEnv>();
  const upload = async (c: Ctx) => {
    const parsed = uploadParams.safeParse({ id: c.req.param("id"), token: c.req.param("token") });
    // Problems like the rest of the API (a charger reads only the status).
    const refused = () => {
      throw new ApiError(401, "unauthenticated", "La dirección de subida no es válida, venció o ya se usó.");
    };
    if (!parsed.success) return refused();
    const [row] = await db
      .select({ id: chargerDiagnostics.id, tokenHash: chargerDiagnostics.tokenHash, status: chargerDiagnostics.status, requestedAt: chargerDiagnostics.requestedAt, fileName: chargerDiagnostics.fileName })
      .from(chargerDiagnostics)
      .where(eq(chargerDiagnostics.id, parsed.data.id));
    const given = Buffer.from(sha256(parsed.data.token));
    const valid =
      row &&
      timingSafeEqual(given, Buffer.from(row.tokenHash)) &&
      (row.status === "REQUESTED" || row.status === "UPLOADING") &&
      now().getTime() - row.requestedAt.getTime() < UPLOAD_VALID_MS;
    if (!valid) {
      logger.warn({ diagnosticsId: parsed.data.id }, "subida de diagnóstico rechazada");
      return refused();
    }
    const file = await readUpload(c);
    if (file === "too-large") throw new ApiError(413, "payload-too-large", "El archivo es demasiado grande: el máximo es de 20 MB.");
    const pathName = c.req.param("fileName");
    const fileName = (file.fileName ?? pathName ?? row.fileName ?? "diagnostico.bin").slice(0, 255);
    await db
      .update(chargerDiagnostics)
      .set({ status: "UPLOADED", content: Buffer.from(file.bytes), sizeBytes: file.bytes.byteLength, fileName, contentType: file.contentType?.slice(0, 100) ?? null, uploadedAt: now() })
      .where(and(eq(chargerDiagnostics.id, row.id), inArray(chargerDiagnostics.status, ["REQUESTED", "UPLOADING"])));
    logger.info({ diagnosticsId: row.id, bytes: file.bytes.byteLength }, "diagnóstico recibido");
    return c.body(null, 201);
  };
  for (const path of ["/:id/:token", "/:id/:token/:fileName"]) {
    r.put(path, upload);
    r.post(path, upload);
  }
  return r;
}
