// Reading the Business API from the home, activity, notification and payment loaders.
import type { ApiClient } from "~/lib/api.server";
import { readJson } from "~/lib/api.server";

export type Fetched<T> = { ok: true; data: T } | { ok: false; status: number; title?: string };

/** GET a JSON resource; network failures and timeouts come back as status 503, never thrown. */
export async function fetchJson<T>(api: ApiClient, path: string): Promise<Fetched<T>> {
  try {
    const response = await api.get(path);
    const body = await readJson<T & { title?: string }>(response);
    if (response.ok && body !== undefined) return { ok: true, data: body };
    return { ok: false, status: response.ok ? 502 : response.status, title: body?.title };
  } catch {
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

export { UNAVAILABLE } from "./labels";
