// Query strings of the list endpoints: whitelisted filters and sorts, bounded pages.
// Pure: the filter forms can use them too. Empty values (`?province=`) count as absent.
import { z } from "zod";
import { PROVINCE_CODES, type ProvinceCode } from "#domain/provinces";
import { STATUS_BUCKETS } from "#domain/ocpp-status-summary";
import { DRIVER_STEPS } from "#domain/driver-payment";
import { INVOICE_TYPE_CODES } from "#domain/invoice";
import { id, isoDate, isoDateEnd, optionsPageQuery, pageQuery, queryBool, sortParam } from "./common";
import { MSG } from "./messages";
import {
  MAX_RANGE_DAYS,
  RANGE_MESSAGES,
  STATION_SORTS,
  CHARGER_SORTS,
  RATE_SORTS,
  TAG_SORTS,
  ACCESS_GROUP_SORTS,
  SESSION_STATUSES,
  INVOICE_STATUSES,
  SESSION_PAYMENT_STATUSES,
  ACTIVITY_SORTS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PAYMENT_SORTS,
} from "./constants";

// The lists and labels live in ./constants (no zod) so pages can use them without shipping zod.
export {
  MAX_RANGE_DAYS,
  RANGE_MESSAGES,
  STATION_SORTS,
  CHARGER_SORTS,
  RATE_SORTS,
  TAG_SORTS,
  ACCESS_GROUP_SORTS,
  SESSION_STATUSES,
  SESSION_STATUS_LABELS,
  SESSION_PAYMENT_STATUSES,
  SESSION_PAYMENT_STATUS_LABELS,
  ACTIVITY_SORTS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PAYMENT_STATUS_LABELS,
  PAYMENT_SORTS,
} from "./constants";

const q = z.string().trim().max(100, { error: MSG.tooLong(100) }).optional();

function checkRange(v: { from?: Date; to?: Date }, ctx: z.RefinementCtx, maxDays: number | null = MAX_RANGE_DAYS) {
  if (v.from && v.to && v.from >= v.to) ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGES.order });
  else if (maxDays && v.from && v.to && v.to.getTime() - v.from.getTime() > maxDays * 86_400_000)
    ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGES.span });
}

export const stationListQuery = z.object({
  q,
  province: z.enum(PROVINCE_CODES as unknown as [ProvinceCode, ...ProvinceCode[]], { error: "Elegí una provincia de la lista." }).optional(),
  published: queryBool.optional(),
  sort: sortParam(STATION_SORTS, "name"),
  ...pageQuery,
});

export const chargerListQuery = z.object({
  q,
  stationId: id.optional(),
  /** Chargers with at least one connector in that bucket ('offline': charger offline or disabled). */
  status: z.enum(STATUS_BUCKETS, { error: MSG.invalidOption }).optional(),
  unassigned: queryBool.optional(),
  sort: sortParam(CHARGER_SORTS, "name"),
  ...pageQuery,
});

export const rateListQuery = z.object({ q, sort: sortParam(RATE_SORTS, "name"), ...pageQuery });
/** q: part of the idTag or of the holder's name. */
export const tagListQuery = z.object({ q, groupId: id.optional(), sort: sortParam(TAG_SORTS, "holderName"), ...pageQuery });
export const accessGroupListQuery = z.object({ q, sort: sortParam(ACCESS_GROUP_SORTS, "name"), ...pageQuery });
export const accessGroupOptionsQuery = z.object({ ...optionsPageQuery });

/** Choices for a form or filter (id and name only, by name): paged, up to OPTIONS_MAX_PAGE_SIZE. */
export const stationOptionsQuery = z.object({ ...optionsPageQuery });
export const chargerOptionsQuery = z.object({ stationId: id.optional(), ...optionsPageQuery });

const activityFilters = {
  stationId: id.optional(),
  chargerId: id.optional(),
  status: z.enum(SESSION_STATUSES, { error: MSG.invalidOption }).optional(),
  paymentStatus: z.enum(SESSION_PAYMENT_STATUSES, { error: MSG.invalidOption }).optional(),
  /** "1": sessions still open (in progress or waiting for the unplug) STUCK_AFTER_HOURS after they started. */
  stuck: z.enum(["1"], { error: MSG.invalidOption }).optional(),
  /** Sessions started at or after (a bare date is 00:00 Buenos Aires). */
  from: isoDate.optional(),
  /** Sessions started before (a bare date means the end of that day). */
  to: isoDateEnd.optional(),
};

export const activityQuery = z
  .object({
    ...activityFilters,
    sort: sortParam(ACTIVITY_SORTS, "-startedAt"),
    /** Keyset cursor from a previous page's nextCursor (default sort only): the page after it. */
    cursor: z.string().max(200).optional(),
    /** Keyset cursor from a page's prevCursor (default sort only): the page before it. */
    before: z.string().max(200).optional(),
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

export const paymentListQuery = z
  .object({
    provider: z.enum(PAYMENT_PROVIDERS, { error: MSG.invalidOption }).optional(),
    status: z.enum(PAYMENT_STATUSES, { error: MSG.invalidOption }).optional(),
    /** A QR payment's step, e.g. REFUND_PENDING: the refunds the company owes by hand. */
    step: z.enum(DRIVER_STEPS, { error: MSG.invalidOption }).optional(),
    sessionId: id.optional(),
    from: isoDate.optional(),
    to: isoDateEnd.optional(),
    sort: sortParam(PAYMENT_SORTS, "-createdAt"),
    ...pageQuery,
  })
  .superRefine((v, ctx) => checkRange(v, ctx, null));

/** The longest period one reconciliation reads from the providers (each of its payments is asked about). */
export const RECONCILIATION_MAX_DAYS = 31;

/** GET /Business/Payments/Reconciliation: payments created in [from, to); absent, the last 7 days. */
export const reconciliationQuery = z
  .object({ from: isoDate.optional(), to: isoDateEnd.optional() })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from >= v.to) ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGES.order });
    else if (v.from && v.to && v.to.getTime() - v.from.getTime() > RECONCILIATION_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: "custom", path: ["to"], message: `La conciliación abarca hasta ${RECONCILIATION_MAX_DAYS} días: elegí un período más corto.` });
  });

/** GET /Business/Invoice and its CSV: the vouchers issued (created) in the period, by type and state. */
export const invoiceListQuery = z
  .object({
    type: z.coerce
      .number({ error: MSG.invalidOption })
      .refine((n) => (INVOICE_TYPE_CODES as readonly number[]).includes(n), { message: MSG.invalidOption })
      .optional(),
    status: z.enum(INVOICE_STATUSES, { error: MSG.invalidOption }).optional(),
    from: isoDate.optional(),
    to: isoDateEnd.optional(),
    ...pageQuery,
  })
  .superRefine((v, ctx) => checkRange(v, ctx, null));
export const invoiceExportQuery = z
  .object({ type: invoiceListQuery.shape.type, status: invoiceListQuery.shape.status, from: isoDate.optional(), to: isoDateEnd.optional() })
  .superRefine((v, ctx) => checkRange(v, ctx, null));

/** Closing a session the charger never stopped: the operator says why. */
export const closeSessionBody = z.object({
  reason: z
    .string({ error: "Contá por qué cerrás la carga." })
    .trim()
    .min(5, { error: "Contá por qué cerrás la carga (al menos 5 caracteres)." })
    .max(200, { error: "El motivo puede tener como máximo 200 caracteres." }),
});

/** GET /Business/Charger/:id/Event: pages of the charger's events (20 by default, newest first). */
export const chargerEventQuery = z.object({ ...pageQuery });
