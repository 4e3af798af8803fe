import { data } from "react-router";
import { appContext, chosenCompany, type AppContext, type RequestContext } from "~/lib/context";

/** The company a call acts for (issue 26); the API checks the caller's membership on every call. */
export const BUSINESS_HEADER = "X-Enchufa-Business";

export const API_TIMEOUT_MS = 10_000; // spec §7 / §9

export class ApiTimeoutError extends Error {
  constructor(path: string) {
    super(`La API no respondió en ${API_TIMEOUT_MS / 1000} s (${path})`);
    this.name = "ApiTimeoutError";
  }
}

export interface ApiClient {
  /** Raw call: the response is passed through unchanged, whatever its status (spec §8). */
  request(method: string, path: string, body?: unknown, init?: { headers?: HeadersInit; signal?: AbortSignal }): Promise<Response>;
  get(path: string): Promise<Response>;
  post(path: string, body?: unknown, init?: { headers?: HeadersInit }): Promise<Response>;
  patch(path: string, body?: unknown): Promise<Response>;
  put(path: string, body?: unknown): Promise<Response>;
  delete(path: string, body?: unknown): Promise<Response>;
}

/**
 * The typed client every loader and action uses to reach the Business API (spec §7):
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
  return {
    request,
    // A page's read refused by the API's limit is the page's answer: 429 for the error boundary.
    get: async (path) => throwIfRateLimited(await request("GET", path)),
    post: (path, body, init) => request("POST", path, body, init),
    patch: (path, body) => request("PATCH", path, body),
    put: (path, body) => request("PUT", path, body),
    delete: (path, body) => request("DELETE", path, body),
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

/** Read a JSON body, or undefined when the API answered something else. */
export async function readJson<T>(response: Response): Promise<T | undefined> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return undefined;
  try {
    return (await response.json()) as T;
  } catch {
    return undefined;
  }
}

/** The problem+json shape the Business API answers errors with (DESIGN.md §5). */
export interface ApiProblem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[]>;
}

// Reading the Business API from loaders: failures come back as values, never thrown.

export type Fetched<T> = { ok: true; data: T } | { ok: false; status: number; title?: string };

/** GET a JSON resource; network failures and timeouts come back as status 503, never thrown. */
export async function fetchJson<T>(api: ApiClient, path: string): Promise<Fetched<T>> {
  try {
    const response = await api.get(path);
    const body = await readJson<T & { title?: string }>(response);
    if (response.ok && body !== undefined) return { ok: true, data: body };
    return { ok: false, status: response.ok ? 502 : response.status, title: body?.title };
  } catch (error) {
    if (isRateLimitedPage(error)) throw error;
    return { ok: false, status: 503 };
  }
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
