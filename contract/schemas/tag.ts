// RFID tags and access groups. Pure: shared with the forms.
import { z } from "zod";
import { ID_TAG_MAX } from "#domain/authorization";
import { TAG_MESSAGES } from "#domain/tag-csv";
import { optionalText, text, toCuit } from "./common";
import { RECEIVER_TAX_CONDITIONS, UUID_RE } from "./constants";
import { MSG } from "./messages";

export { TAG_MESSAGES };

const uuid = (message: string = MSG.invalidOption) => z.string({ error: message }).regex(UUID_RE, { error: message }).transform((v) => v.toLowerCase());

export const idTag = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .max(ID_TAG_MAX, { error: MSG.tooLong(ID_TAG_MAX), abort: true })
  .regex(/^[\x21-\x7E]+$/, { error: TAG_MESSAGES.idTagFormat });

/** YYYY-MM-DD (a native date input), a real day. */
export const isoDay = z
  .string({ error: MSG.date })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: MSG.date })
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= "2000-01-01" && v <= "2199-12-31";
  }, { error: MSG.date });

export const tagInputSchema = z.object({
  idTag,
  holderName: text(120),
  email: optionalText(254).refine((v) => v == null || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { error: MSG.email }),
  expiresOn: z.preprocess((v) => (v === "" ? null : v), isoDay.nullable().default(null)),
  blocked: z.boolean({ error: MSG.invalid }).default(false),
  groupId: z.preprocess((v) => (v === "" ? null : v), uuid("Elegí un grupo de la lista.").nullable().default(null)),
});
export type TagInput = z.input<typeof tagInputSchema>;

export const STATIONS_REQUIRED_MESSAGE = "Elegí al menos una estación, o marcá «Todas las estaciones».";
export const BILLING_MESSAGES = {
  cuit: "Ingresá el CUIT al que se factura cada mes.",
  name: "Ingresá la razón social a la que se factura cada mes.",
  taxCondition: "Elegí la condición frente al IVA del cliente.",
} as const;

/** An optional CUIT: empty is none; anything else must be a CUIT with a valid check digit (11 digits out). */
const optionalCuit = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? null : v),
  z
    .string({ error: MSG.invalid })
    .trim()
    .transform(toCuit)
    .nullable()
    .default(null),
);

export const accessGroupInputSchema = z
  .object({
    name: text(80),
    allStations: z.boolean({ error: MSG.invalid }).default(true),
    stationIds: z
      .array(uuid("Elegí estaciones de la lista."), { error: MSG.invalid })
      .max(500, { error: MSG.maxItems(500) })
      .default([])
      .transform((ids) => [...new Set(ids)]),
    rateId: z.preprocess((v) => (v === "" ? null : v), uuid("Elegí una tarifa de la lista.").nullable().default(null)),
    // Who pays for the group's tags; with «Facturar mensualmente» its sessions get one invoice a month.
    billingCuit: optionalCuit,
    billingName: optionalText(120).transform((v) => v ?? null),
    billingTaxCondition: z.preprocess((v) => (v === "" ? null : v), z.enum(RECEIVER_TAX_CONDITIONS, { error: BILLING_MESSAGES.taxCondition }).nullable().default(null)),
    billingMonthly: z.boolean({ error: MSG.invalid }).default(false),
  })
  .superRefine((g, ctx) => {
    if (!g.allStations && g.stationIds.length === 0) ctx.addIssue({ code: "custom", path: ["stationIds"], message: STATIONS_REQUIRED_MESSAGE });
    if (g.billingMonthly) {
      if (!g.billingCuit) ctx.addIssue({ code: "custom", path: ["billingCuit"], message: BILLING_MESSAGES.cuit });
      if (!g.billingName) ctx.addIssue({ code: "custom", path: ["billingName"], message: BILLING_MESSAGES.name });
      if (!g.billingTaxCondition) ctx.addIssue({ code: "custom", path: ["billingTaxCondition"], message: BILLING_MESSAGES.taxCondition });
    }
  })
  .transform((g) => (g.allStations ? { ...g, stationIds: [] } : g));
export type AccessGroupInput = z.input<typeof accessGroupInputSchema>;
