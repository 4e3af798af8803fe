// Building blocks shared by the API's input schemas and the forms. Pure (no node imports).
import { z } from "zod";
import { parseCuit } from "#domain/cuit";
import { UUID_RE } from "./constants";
import { MSG, numberError } from "./messages";

export const MAX_PAGE_SIZE = 100;
/** Choices for a select (id and name only): a company's stations fit in one page. */
export const OPTIONS_MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 20;

/** A trimmed, required text with a maximum length. */
export const text = (max: number, min = 1) => {
  const base = z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true });
  return (min > 1 ? base.min(min, { error: MSG.tooShort(min) }) : base).max(max, { error: MSG.tooLong(max) });
};

/** Optional text: absent, empty string and null all become null. */
export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string({ error: MSG.invalid })
      .trim()
      .max(max, { error: MSG.tooLong(max) })
      .nullable()
      .optional()
      .transform((v) => v ?? null),
  );

export const CUIT_MESSAGES = {
  format: "Ingresá un CUIT de 11 dígitos (XX-XXXXXXXX-X).",
  prefix: "El CUIT no empieza con un tipo válido (20, 23, 24, 27, 30, 33, 34…).",
  checkDigit: "El dígito verificador del CUIT no es válido.",
} as const;

/** Accepts `XX-XXXXXXXX-X` or 11 digits; outputs the 11 digits. */
/** A typed CUIT as its 11 digits, or the check digit's (or length's) Spanish message on the field. */
export function toCuit(value: string, ctx: z.core.$RefinementCtx<string>): string {
  const parsed = parseCuit(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: CUIT_MESSAGES[parsed.problem] });
    return z.NEVER;
  }
  return parsed.cuit;
}

export const cuit = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .transform(toCuit);

export const PHONE_MESSAGE = "Ingresá un teléfono válido (por ejemplo +54 11 5555-0000).";
export const phoneNumber = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .max(30, { error: MSG.tooLong(30) })
  .regex(/^\+?[0-9][0-9\s().-]{5,28}$/, { error: PHONE_MESSAGE })
  .refine((v) => v.replace(/\D/g, "").length >= 6 && v.replace(/\D/g, "").length <= 15, { error: PHONE_MESSAGE });

/** Integer centavos, 0 .. 100 millones de pesos. */
export const cents = z
  .number({ error: numberError })
  .int({ error: MSG.integer })
  .min(0, { error: "No puede ser negativo." })
  .max(10_000_000_000, { error: MSG.max(10_000_000_000) });

export const HHMM_MESSAGE = "Ingresá una hora con formato HH:MM.";
export const hhmm = z.string({ error: MSG.required }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: HHMM_MESSAGE });

/** Ids are UUIDs; anything else is a 404 (not a validation error) at the route level. */
export { UUID_RE } from "./constants";
export const id = z.string({ error: MSG.required }).regex(UUID_RE, { error: MSG.invalid });

/** Query-string boolean: `true`/`false`/`1`/`0`. */
export const queryBool = z.enum(["true", "false", "1", "0"], { error: MSG.invalidOption }).transform((v) => v === "true" || v === "1");

const pageParams = (maxPageSize: number) => ({
  page: z.coerce.number({ error: MSG.number }).int({ error: MSG.integer }).min(1, { error: MSG.min(1) }).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: MSG.number })
    .int({ error: MSG.integer })
    .min(1, { error: MSG.min(1) })
    .max(maxPageSize, { error: MSG.max(maxPageSize) })
    .default(DEFAULT_PAGE_SIZE),
});
export const pageQuery = pageParams(MAX_PAGE_SIZE);
/** Option lists (`…/Options`): the same paging with a larger cap (OPTIONS_MAX_PAGE_SIZE). */
export const optionsPageQuery = pageParams(OPTIONS_MAX_PAGE_SIZE);

/** `sort=name` or `sort=-name` from a whitelist. */
export function sortParam<const K extends string>(keys: readonly K[], fallback: NoInfer<`${"" | "-"}${K}`>) {
  const allowed = keys.flatMap((k) => [k, `-${k}`]) as [`${"" | "-"}${K}`, ...`${"" | "-"}${K}`[]];
  return z.enum(allowed, { error: MSG.invalidOption }).default(fallback as never);
}

/**
 * The dates any filter or field accepts: a calendar has year 1 and year 9999, but the database
 * and JavaScript's ISO format do not agree on them (year 0, a sixth year digit), and no charge,
 * payment or audit entry is outside these.
 */
export const MIN_DATE = new Date("1970-01-01T00:00:00Z");
export const MAX_DATE = new Date("3000-01-01T03:00:00Z");
export const inDateRange = (d: Date): boolean => d.getTime() >= MIN_DATE.getTime() && d.getTime() <= MAX_DATE.getTime();

// NUL and the other control characters (tab, line feed and carriage return are text): PostgreSQL
// refuses a NUL in text and jsonb, and none belongs in a name, an address or a filter.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The first place in a parsed body (or form, or query) holding a control character, as a field
 * path (`connectors[0].standard`; a key that has one names itself), or null. One rule for every
 * API body, query string and dashboard form: a field error, never a 500.
 */
export function controlCharField(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return CONTROL_CHARS_RE.test(value) ? path || "form" : null;
  if (!value || typeof value !== "object" || depth > 64) return null;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [`${path}[${i}]`, v]) : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  for (const [key, v] of entries) {
    if (CONTROL_CHARS_RE.test(key)) return key.replace(new RegExp(CONTROL_CHARS_RE.source, "g"), "");
    const found = controlCharField(v, key, depth + 1);
    if (found) return found;
  }
  return null;
}

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function isoDateParser(endOfDay: boolean) {
  return z
    .string({ error: MSG.required })
    .trim()
    .regex(ISO_DATE_RE, { error: MSG.date })
    .transform((value, ctx) => {
      // A bare date is a day in Buenos Aires (UTC−3, no DST since 2009); a date-time without
      // offset is Buenos Aires local time.
      const bare = value.length === 10;
      const iso = bare ? `${value}T00:00:00-03:00` : /[Zz]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}-03:00`;
      const d = new Date(iso);
      if (Number.isNaN(d.getTime()) || !inDateRange(d) || (bare && d.toISOString().slice(0, 10) !== value)) {
        ctx.addIssue({ code: "custom", message: Number.isNaN(d.getTime()) || inDateRange(d) ? MSG.date : MSG.dateRange });
        return z.NEVER;
      }
      return bare && endOfDay ? new Date(d.getTime() + 86_400_000) : d;
    });
}

/** An ISO date (`2025-01-31`, 00:00 in Buenos Aires) or date-time; outputs a Date. */
export const isoDate = isoDateParser(false);
/** Same, but a bare date means the END of that day (exclusive upper bound: next day 00:00). */
export const isoDateEnd = isoDateParser(true);
