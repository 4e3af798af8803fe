// Request parsing helpers: JSON bodies, query strings and path ids, validated with zod.
import type { z } from "zod";
import type { Ctx } from "./env";
import { ApiError, notFound, parseOrThrow, validationError } from "./problem";
import { UUID_RE, controlCharField } from "#contract/schemas/common";
import { MSG } from "#contract/schemas/messages";

/** A JSON body's largest size in characters (the whole request is capped at 1 MiB before this). */
export const MAX_JSON_BYTES = 256 * 1024;
/**
 * How deep a JSON body may nest objects and arrays. No input of the API goes past 4 levels; a
 * body nested hundreds deep is an attack on whatever parses it next (PostgreSQL's jsonb parser
 * in PGlite aborts the whole embedded database on one), so it is refused before anything reads it.
 */
export const MAX_JSON_DEPTH = 32;
export const JSON_TOO_DEEP_MESSAGE = `El contenido tiene demasiados niveles anidados (máximo ${MAX_JSON_DEPTH}).`;

/** Whether the JSON text nests objects/arrays deeper than `max` (brackets inside strings do not count). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * The raw body of a JSON request, bounded in size (413) and depth (400) before anyone parses it.
 * The app runs it once for every request with a JSON body (api/app.ts); handlers read it again.
 */
export async function boundedJsonText(c: Ctx): Promise<string> {
  const raw = await c.req.text();
  if (raw.length > MAX_JSON_BYTES) throw new ApiError(413, "payload-too-large", "El contenido es demasiado grande.");
  if (jsonTooDeep(raw)) throw new ApiError(400, "validation", JSON_TOO_DEEP_MESSAGE);
  return raw;
}

/**
 * Parse and validate the JSON body (422 with per-field messages; 400 when not JSON). The
 * validated value is what the request's audit entry records (api/audit.ts): the guard's hook runs
 * here, before the handler acts on it, so a command whose entry cannot be written is never sent.
 */
export async function readJson<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError(415, "unsupported-media-type", "El contenido debe ser JSON (Content-Type: application/json).");
  }
  const raw = await boundedJsonText(c);
  let data: unknown;
  try {
    data = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new ApiError(400, "validation", "El cuerpo de la solicitud no es JSON válido.");
  }
  refuseControlChars(data);
  const input = await parseOrThrow(schema, data);
  const onInput = c.get("onValidInput");
  if (onInput) await onInput(input);
  return input;
}

/** Validate the query string; empty values count as absent; repeated keys keep the last. */
export async function readQuery<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.output<S>> {
  const params: Record<string, string> = {};
  for (const [k, v] of new URL(c.req.url).searchParams) if (v !== "") params[k] = v;
  refuseControlChars(params);
  return parseOrThrow(schema, params);
}

/** A NUL or control character anywhere in the input: a 422 naming the field. */
function refuseControlChars(data: unknown): void {
  const field = controlCharField(data);
  if (field) throw validationError({ [field]: [MSG.controlChars] });
}

/** A UUID path parameter; anything else is a 404 (the resource cannot exist). */
export function idParam(c: Ctx, name = "id", what?: string): string {
  const value = c.req.param(name) ?? "";
  if (!UUID_RE.test(value)) throw notFound(what);
  return value.toLowerCase();
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
export const isoRequired = (d: Date): string => d.toISOString();

export function pageOffset(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/**
 * The total of a paged list, counted only when the page cannot tell it: a page with fewer rows
 * than asked for is the last one, so the total is the rows before it plus its own (a short first
 * page — most option lists — costs one query instead of two). An empty page past the first could
 * be beyond the end, so that one is counted.
 */
export async function pageTotal(rows: readonly unknown[], query: { page: number; pageSize: number }, count: () => Promise<number>): Promise<number> {
  if (rows.length < query.pageSize && (rows.length > 0 || query.page === 1)) return pageOffset(query.page, query.pageSize) + rows.length;
  return count();
}

type SortKey<S extends string> = S extends `-${infer K}` ? K : S;

/** `-name` → { key: 'name', desc: true } */
export function parseSort<S extends string>(sort: S): { key: SortKey<S>; desc: boolean } {
  return sort.startsWith("-") ? { key: sort.slice(1) as SortKey<S>, desc: true } : { key: sort as SortKey<S>, desc: false };
}

/** Escape LIKE wildcards for a user-typed search. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}
