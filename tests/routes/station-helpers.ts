// Support for the station route tests: the shared msw Business API (tests/mocks) over the HTTP
// transport, a signed-in cookie, form posts with repeated fields, and reading flash toasts.
import type { AppContext } from "~/lib/context";
import { http, HttpResponse } from "msw";
import { getToast } from "remix-toast";
import { API_TEST_BASE_URL, apiUrl, server } from "../mocks/server";
import { APP, fake, makeContext, signedInCookie } from "./auth-helpers";

export { server, apiUrl };

export function context(overrides: Partial<AppContext> = {}) {
  return makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, ...overrides });
}

export async function cookie() {
  const account = fake.accounts.get("ops@example.com") ?? fake.addAccount("ops@example.com", "Clave-Segura-1");
  return (await signedInCookie(account)).cookie;
}

export function get(path: string, c: string) {
  return new Request(`${APP}${path}`, { headers: { Cookie: c } });
}

/** A form POST; array values become repeated fields (checkboxes). */
export function postForm(path: string, fields: Record<string, string | string[]>, c: string) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
  return new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: c, "Content-Type": "application/x-www-form-urlencoded" }, body });
}

/** The flash toast a redirect set, read back as the next request would. */
export async function flashToast(res: { headers: Headers }) {
  const set = res.headers.getSetCookie().find((v) => v.startsWith("toast-session="));
  if (!set) return undefined;
  const { toast } = await getToast(new Request(APP, { headers: { Cookie: set.split(";")[0] } }));
  return toast;
}

export interface Recorded {
  method: string;
  url: URL;
  body: unknown;
}

/** Record every API call (the handlers still answer). */
export function record(): Recorded[] {
  const calls: Recorded[] = [];
  server.events.on("request:start", async ({ request }) => {
    const clone = request.clone();
    const text = await clone.text().catch(() => "");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    calls.push({ method: request.method, url: new URL(request.url), body });
  });
  return calls;
}

export function problemJson(status: number, title: string, errors?: Record<string, string[]>) {
  return HttpResponse.json({ type: "about:blank", title, status, ...(errors ? { errors } : {}) }, { status, headers: { "Content-Type": "application/problem+json" } });
}

export { http, HttpResponse };
