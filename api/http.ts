// Request parsing helpers: JSON bodies, query strings and path ids, validated with zod.
import type { z } from "zod";
import type { Ctx } from "./env";
import { ApiError, notFound, parseOrThrow } from "./problem";
import { UUID_RE } from "./schemas/common";

export const MAX_JSON_BYTES = 256 * 1024;

/** Parse and validate the JSON body (422 with per-field messages; 400 when not JSON). */
export async function readJson<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError(415, "unsupported-media-type", "El contenido debe ser JSON (Content-Type: application/json).");
  }
  const raw = await c.req.text();
  if (raw.length > MAX_JSON_BYTES) throw new ApiError(413, "payload-too-large", "El contenido es demasiado grande.");
  let data: unknown;
  try {
    data = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new ApiError(400, "validation", "El cuerpo de la solicitud no es JSON válido.");
  }
  return parseOrThrow(schema, data);
}

/** Validate the query string; empty values count as absent; repeated keys keep the last. */
export async function readQuery<S extends z.ZodType>(c: Ctx, schema: S): Promise<z.output<S>> {
  const params: Record<string, string> = {};
  for (const [k, v] of new URL(c.req.url).searchParams) if (v !== "") params[k] = v;
  return parseOrThrow(schema, params);
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
