// Query strings of the list endpoints: whitelisted filters and sorts, bounded pages.
// Pure: the filter forms can use them too. Empty values (`?province=`) count as absent.
import { z } from "zod";
import { PROVINCE_CODES, type ProvinceCode } from "../../domain/provinces";
import { STATUS_BUCKETS } from "../../domain/ocpp-status";
import { id, isoDate, isoDateEnd, pageQuery, queryBool, sortParam } from "./common";
import { MSG } from "./messages";

const q = z.string().trim().max(100, { error: MSG.tooLong(100) }).optional();

export const MAX_RANGE_DAYS = 366;
export const RANGE_MESSAGES = {
  order: "La fecha 'hasta' debe ser posterior a 'desde'.",
  span: `El período no puede superar los ${MAX_RANGE_DAYS} días.`,
} as const;

function checkRange(v: { from?: Date; to?: Date }, ctx: z.RefinementCtx, maxDays: number | null = MAX_RANGE_DAYS) {
  if (v.from && v.to && v.from >= v.to) ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGES.order });
  else if (maxDays && v.from && v.to && v.to.getTime() - v.from.getTime() > maxDays * 86_400_000)
    ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGES.span });
}

export const STATION_SORTS = ["name", "city", "province", "createdAt", "updatedAt"] as const;
export const stationListQuery = z.object({
  q,
  province: z.enum(PROVINCE_CODES as unknown as [ProvinceCode, ...ProvinceCode[]], { error: "Elegí una provincia de la lista." }).optional(),
  published: queryBool.optional(),
  sort: sortParam(STATION_SORTS, "name"),
  ...pageQuery,
});

export const CHARGER_SORTS = ["name", "ocppIdentity", "station", "lastHeartbeatAt", "createdAt"] as const;
export const chargerListQuery = z.object({
  q,
  stationId: id.optional(),
  /** Chargers with at least one connector in that bucket ('offline': charger offline or disabled). */
  status: z.enum(STATUS_BUCKETS, { error: MSG.invalidOption }).optional(),
  unassigned: queryBool.optional(),
  sort: sortParam(CHARGER_SORTS, "name"),
  ...pageQuery,
});

export const RATE_SORTS = ["name", "pricePerKwhCents", "createdAt"] as const;
export const rateListQuery = z.object({ q, sort: sortParam(RATE_SORTS, "name"), ...pageQuery });

export const SESSION_STATUSES = ["ACTIVE", "IDLE", "COMPLETED", "INVALID"] as const;
export const SESSION_STATUS_LABELS: Record<(typeof SESSION_STATUSES)[number], string> = {
  ACTIVE: "En curso",
  IDLE: "Finalizada, vehículo conectado",
  COMPLETED: "Completada",
  INVALID: "Inválida",
};
export const SESSION_PAYMENT_STATUSES = ["PENDING", "PAID", "FAILED", "NOT_REQUIRED"] as const;
export const SESSION_PAYMENT_STATUS_LABELS: Record<(typeof SESSION_PAYMENT_STATUSES)[number], string> = {
  PENDING: "Pendiente",
  PAID: "Pagada",
  FAILED: "Pago rechazado",
  NOT_REQUIRED: "Sin cargo",
};
export const ACTIVITY_SORTS = ["startedAt", "energyWh", "totalCents", "idleMinutes"] as const;

const activityFilters = {
  stationId: id.optional(),
  chargerId: id.optional(),
  status: z.enum(SESSION_STATUSES, { error: MSG.invalidOption }).optional(),
  paymentStatus: z.enum(SESSION_PAYMENT_STATUSES, { error: MSG.invalidOption }).optional(),
  /** Sessions started at or after (a bare date is 00:00 Buenos Aires). */
  from: isoDate.optional(),
  /** Sessions started before (a bare date means the end of that day). */
  to: isoDateEnd.optional(),
};

export const activityQuery = z
  .object({
    ...activityFilters,
    sort: sortParam(ACTIVITY_SORTS, "-startedAt"),
    /** Keyset cursor from a previous page's nextCursor (default sort only). */
    cursor: z.string().max(200).optional(),
    ...pageQuery,
  })
  .superRefine((v, ctx) => checkRange(v, ctx, null));

export const activityExportQuery = z.object({ ...activityFilters, sort: sortParam(ACTIVITY_SORTS, "-startedAt") }).superRefine((v, ctx) => checkRange(v, ctx, null));

export const periodQuery = z
  .object({ from: isoDate.optional(), to: isoDateEnd.optional() })
  .superRefine((v, ctx) => checkRange(v, ctx));

export const GRAPHIC_SERIES = ["energyRevenueByDay", "sessionsByHour", "topStations"] as const;
export const graphicQuery = z
  .object({
    from: isoDate.optional(),
    to: isoDateEnd.optional(),
    series: z.enum(GRAPHIC_SERIES, { error: MSG.invalidOption }).default("energyRevenueByDay"),
  })
  .superRefine((v, ctx) => checkRange(v, ctx));

export const notificationListQuery = z.object({ unread: queryBool.optional(), ...pageQuery });

export const PAYMENT_PROVIDERS = ["MERCADOPAGO", "PAGOS360"] as const;
export const PAYMENT_STATUSES = ["PENDING", "APPROVED", "REJECTED", "REFUNDED", "CANCELLED"] as const;
export const PAYMENT_STATUS_LABELS: Record<(typeof PAYMENT_STATUSES)[number], string> = {
  PENDING: "Pendiente",
  APPROVED: "Aprobado",
  REJECTED: "Rechazado",
  REFUNDED: "Devuelto",
  CANCELLED: "Cancelado",
};
export const PAYMENT_SORTS = ["createdAt", "amountCents"] as const;
export const paymentListQuery = z
  .object({
    provider: z.enum(PAYMENT_PROVIDERS, { error: MSG.invalidOption }).optional(),
    status: z.enum(PAYMENT_STATUSES, { error: MSG.invalidOption }).optional(),
    sessionId: id.optional(),
    from: isoDate.optional(),
    to: isoDateEnd.optional(),
    sort: sortParam(PAYMENT_SORTS, "-createdAt"),
    ...pageQuery,
  })
  .superRefine((v, ctx) => checkRange(v, ctx, null));
