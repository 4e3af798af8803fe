import { data } from "react-router";
import type { BodyOf, EndpointDef, OutputOf, ParamNames, ParamsOf, QueryOf } from "#contract/endpoints";
import { appContext, chosenCompany, type AppContext, type RequestContext } from "~/lib/context";

/** The company a call acts for; the API checks the caller's membership on every call. */
export const BUSINESS_HEADER = "X-Enchufa-Business";

/** How long a call to the API may take before the page gives up on it. */
export const API_TIMEOUT_MS = 10_000;

export class ApiTimeoutError extends Error {
  constructor(path: string) {
    super(`La API no respondió en ${API_TIMEOUT_MS / 1000} s (${path})`);
    this.name = "ApiTimeoutError";
  }
}

/** What a typed call answers: the endpoint's output, or the API's problem; never thrown. */
export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; problem: ApiProblem };

/** The body a call sends: the schema's input (JSON), a FormData (multipart image) or a Blob (CSV). */
type BodyInputOf<E extends EndpointDef> = E extends { multipart: true } ? FormData : E extends { csv: true } ? Blob : BodyOf<E>;

/**
 * What a call to endpoint E takes, all typed from contract/endpoints.ts: `params` for the path's
 * `:names` (required when it has any), `query` (the query schema's input, or the page's own
 * URLSearchParams passed on), `body` (required when it has one), and extra `headers` (e.g. an
 * Idempotency-Key) or an abort `signal`.
 */
export type CallInput<E extends EndpointDef> = ([ParamNames<E["path"]>] extends [never] ? { params?: undefined } : { params: ParamsOf<E> }) &
  ([QueryOf<E>] extends [never] ? { query?: undefined } : { query?: Partial<QueryOf<E>> | URLSearchParams }) &
  ([BodyInputOf<E>] extends [never] ? { body?: undefined } : { body: BodyInputOf<E> }) & { headers?: HeadersInit; signal?: AbortSignal };

/** The input argument: optional when nothing in it is required. */
export type CallArgs<E extends EndpointDef> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

export interface ApiClient {
  /**
   * A typed call: `api.call(endpoints.stationGet, { params: { id } })` → ApiResult<StationDto>.
   * Network failures and timeouts come back as status 503, a 2xx without a JSON body (other than
   * 204) as 502; a GET refused by the rate limit throws the page's 429 (throwIfRateLimited).
   */
  call<E extends EndpointDef>(endpoint: E, ...input: CallArgs<E>): Promise<ApiResult<OutputOf<E>>>;
  /**
   * The raw response, for what is not a JSON answer (a CSV export passed through, an image
   * upload read field by field). Typed by endpoint like `call`; a GET's 429 throws the page's
   * 429.
   */
  request<E extends EndpointDef>(endpoint: E, ...input: CallArgs<E>): Promise<Response>;
}

/** CallInput as the implementation reads it, whatever the endpoint. */
type LooseInput = { params?: Record<string, string | number>; query?: object | URLSearchParams; body?: unknown; headers?: HeadersInit; signal?: AbortSignal };

/** The message of a call that never reached the API (network failure or timeout). */
export const API_UNAVAILABLE_MESSAGE = "No pudimos comunicarnos con el servicio. Probá de nuevo en unos minutos.";

/** The problem `type` of a call that never got an answer: the screen's own message fits better than the API's. */
export const UNREACHABLE_PROBLEM = "urn:enchufa:problem:unreachable";

/** An endpoint's path with its `:names` filled in (encoded) and its query string. */
export function endpointUrl(endpoint: Pick<EndpointDef, "path">, input?: { params?: Record<string, string | number>; query?: object | URLSearchParams }): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = input?.params?.[name];
    if (value === undefined) throw new Error(`Falta el parámetro ${name} de ${endpoint.path}`);
    return encodeURIComponent(String(value));
  });
  const query = input?.query instanceof URLSearchParams ? new URLSearchParams(input.query) : new URLSearchParams();
  if (input?.query && !(input.query instanceof URLSearchParams)) {
    for (const [key, value] of Object.entries(input.query)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v === undefined || v === null || v === "") continue;
        query.append(key, v instanceof Date ? v.toISOString() : String(v));
      }
    }
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * The client every loader and action uses to reach the Business API:
 * base URL = API_BASE_URL or the embedded API in-process, 10 s timeout, JSON, bearer token, and
 * the company chosen for this request (the session's, set by the guard) as X-Enchufa-Business.
 * FormData bodies are sent as multipart (the browser-style boundary is set by Request).
 */
export function createApiClient(
  context: RequestContext | Pick<AppContext, "apiFetch" | "apiBaseUrl">,
  token?: string | null,
  timeoutMs = API_TIMEOUT_MS,
): ApiClient {
  const transport = "get" in context ? appContext(context) : context;
  const company = "get" in context ? chosenCompany(context) : null;
  async function request(method: string, path: string, body?: unknown, init?: { headers?: HeadersInit; signal?: AbortSignal }) {
    const headers = new Headers(init?.headers);
    headers.set("Accept", "application/json");
    if (token) headers.set("Authorization", `Bearer ${token}`);
    if (company && !headers.has(BUSINESS_HEADER)) headers.set(BUSINESS_HEADER, company);
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body instanceof Blob) {
      // A file as it is (the tag import's CSV), with its own type.
      payload = body;
      if (body.type) headers.set("Content-Type", body.type);
    } else if (body !== undefined) {
      headers.set("Content-Type", "application/json");
      payload = JSON.stringify(body);
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(init?.signal?.reason);
    init?.signal?.addEventListener("abort", onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiTimeoutError(path));
      }, timeoutMs);
    });
    try {
      const url = transport.apiBaseUrl.replace(/\/$/, "") + path;
      const req = new Request(url, { method, headers, body: payload, signal: controller.signal });
      return await Promise.race([transport.apiFetch(req), timeout]);
    } finally {
      clearTimeout(timer);
      init?.signal?.removeEventListener("abort", onAbort);
    }
  }
  /** The typed form of `request`: the endpoint's URL, its body and headers; a GET's 429 is the page's. */
  async function send(endpoint: EndpointDef, input: LooseInput = {}): Promise<Response> {
    const url = endpointUrl(endpoint, input);
    const response = await request(endpoint.method, url, input.body, { headers: input.headers, signal: input.signal });
    return endpoint.method === "GET" ? throwIfRateLimited(response) : response;
  }
  async function call(endpoint: EndpointDef, input?: LooseInput): Promise<ApiResult<unknown>> {
    let response: Response;
    try {
      response = await send(endpoint, input);
    } catch (error) {
      if (isRateLimitedPage(error)) throw error;
      return { ok: false, status: 503, problem: { type: UNREACHABLE_PROBLEM, title: API_UNAVAILABLE_MESSAGE, status: 503 } };
    }
    if (response.ok && response.status === 204) return { ok: true, status: 204, data: undefined };
    const body = await jsonBody(response);
    if (response.ok) {
      if (body === undefined) return { ok: false, status: 502, problem: { type: UNREACHABLE_PROBLEM, title: API_UNAVAILABLE_MESSAGE, status: 502 } };
      return { ok: true, status: response.status, data: body };
    }
    const problem = body && typeof body === "object" && "title" in body ? (body as ApiProblem) : { title: API_UNAVAILABLE_MESSAGE, status: response.status };
    return { ok: false, status: response.status, problem };
  }
  return {
    call: call as unknown as ApiClient["call"],
    request: send as unknown as ApiClient["request"],
  };
}

/** "Demasiados intentos. Probá de nuevo en N minutos." for a wait of `seconds`. */
export function tooManyRequestsMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Demasiados intentos. Probá de nuevo en ${minutes === 1 ? "1 minuto" : `${minutes} minutos`}.`;
}

/**
 * The API said 429: thrown as the page's own 429 (the root error boundary shows the wait in
 * Spanish, and the root's `headers` pass Retry-After on), instead of a generic failure.
 */
export function throwIfRateLimited(response: Response): Response {
  if (response.status !== 429) return response;
  const seconds = Math.max(1, Math.ceil(Number(response.headers.get("Retry-After")) || 60));
  throw data({ message: tooManyRequestsMessage(seconds), retryAfterSeconds: seconds }, { status: 429, headers: { "Retry-After": String(seconds) } });
}

/** Whether `error` is what throwIfRateLimited throws (callers that turn failures into values let it through). */
export function isRateLimitedPage(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { init?: ResponseInit | null }).init?.status === 429;
}

/** A JSON body, or undefined when the API answered something else. */
async function jsonBody(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The problem+json shape the Business API answers errors with. */
export interface ApiProblem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[]>;
}

/** The query string with only the listed keys that have a value. */
export function pickParams(params: URLSearchParams, keys: readonly string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of keys) {
    const value = params.get(key)?.trim();
    if (value) out.set(key, value);
  }
  return out;
}
