// RFC 9457 problem details, Spanish messages, zod issue → per-field errors.
import type { z } from "zod";
import { spanishErrorMap } from "#contract/schemas/messages";

export type FieldErrors = Record<string, string[]>;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: FieldErrors;
  requestId?: string;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Machine-readable problem types the client may branch on (titles are for people). */
export type ProblemKind =
  | "unauthenticated"
  | "email-not-verified"
  | "business-required"
  | "business-not-active"
  | "forbidden"
  | "not-a-member"
  | "mail-failed"
  | "not-found"
  | "method-not-allowed"
  | "validation"
  | "conflict"
  | "payload-too-large"
  | "unsupported-media-type"
  | "rate-limited"
  | "cross-site"
  | "unavailable"
  | "internal";

export function problemType(kind: ProblemKind): string {
  return `urn:enchufa:problem:${kind}`;
}

/** Throw from any handler; the app's error handler turns it into problem+json. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ProblemKind,
    readonly title: string,
    readonly options: { detail?: string; errors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(title);
    this.name = "ApiError";
  }

  toProblem(): Problem {
    const p: Problem = { type: problemType(this.kind), title: this.title, status: this.status };
    if (this.options.detail) p.detail = this.options.detail;
    if (this.options.errors) p.errors = this.options.errors;
    return p;
  }
}

export const notFound = (what = "El recurso") => new ApiError(404, "not-found", `${what} no existe.`);
export const conflict = (title: string, errors?: FieldErrors) => new ApiError(409, "conflict", title, { errors });
export const validationError = (errors: FieldErrors, title = "Revisá los datos ingresados.") =>
  new ApiError(422, "validation", title, { errors });
export const fieldError = (field: string, message: string, status = 422) =>
  new ApiError(status, status === 409 ? "conflict" : "validation", message, { errors: { [field]: [message] } });

export function problemResponse(problem: Problem, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

/** `connectors[0].standard` — the path format conform uses for its field names. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const paths =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => formatPath([...issue.path, k])) : [formatPath(issue.path)];
    for (const key of paths) {
      const list = (errors[key] ??= []);
      if (!list.includes(issue.message)) list.push(issue.message);
    }
  }
  return errors;
}

/** Parse with Spanish defaults; throws a 422 problem listing every field's messages. */
export async function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown): Promise<z.output<S>> {
  const result = await schema.safeParseAsync(data, { error: spanishErrorMap });
  if (!result.success) throw validationError(zodFieldErrors(result.error));
  return result.data;
}

/** The PostgreSQL error behind a Drizzle error (it wraps the driver's in `cause`). */
export function pgError(err: unknown): { code: string; constraint?: string } | null {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: (cur as { constraint?: string }).constraint };
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

/** What a caller may wait before trying again while the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;
export const UNAVAILABLE_MESSAGE = "El servicio no está disponible en este momento. Probá de nuevo en unos minutos.";

// Connection errors (08xxx), the server shutting down or starting (57P01–57P03) and too many
// connections (53300): the database, not the request, is the problem.
const UNAVAILABLE_PG_CODE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_NET_CODE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
const UNAVAILABLE_MESSAGE_RE = /connection terminated|pglite is closed|cannot use a pool after calling end|timeout exceeded when trying to connect|connection (error|timeout)|database system is (starting up|shutting down)|memory access out of bounds/i;

/**
 * Whether an error means the database cannot be reached (down, restarting, connection lost, the
 * embedded one closed or aborted) rather than a bug: answered 503 with Retry-After, never 500.
 */
export function databaseUnavailable(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    const { code, message, name } = cur as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_PG_CODE.test(code) || UNAVAILABLE_NET_CODE.has(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE_RE.test(message)) return true;
    // PGlite's WebAssembly aborted: nothing answers until the process restarts.
    if (name === "RuntimeError" && cur instanceof Error && !("code" in cur)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}
