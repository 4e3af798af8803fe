// Support for the charger route tests: a signed-in request against the msw Business API
// (tests/mocks, HTTP transport), and a recorder of what the loaders/actions sent to it.
import type { AppContext } from "~/lib/context";
import { http, HttpResponse } from "msw";
import { API_TEST_BASE_URL, apiUrl, server } from "../mocks/server";
import { APP, makeContext, signedInCookie } from "./auth-helpers";

export { server, apiUrl, API_TEST_BASE_URL };

export function chargerContext(overrides: Partial<AppContext> = {}) {
  return makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, ...overrides });
}

export async function operatorCookie() {
  const { cookie } = await signedInCookie({ uid: "uid-operator", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "refresh-operator" });
  return cookie;
}

export function getReq(path: string, cookie: string) {
  return new Request(`${APP}${path}`, { headers: { Cookie: cookie } });
}

export function postForm(path: string, fields: Record<string, string> | [string, string][], cookie: string) {
  const body = new URLSearchParams(fields as Record<string, string>);
  return new Request(`${APP}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
}

export interface Recorded {
  method: string;
  path: string;
  search: URLSearchParams;
  /** The JSON body (read from a clone; await it). */
  body: Promise<unknown>;
  authorization: string | null;
}

/** Records every API request as it starts (msw's life-cycle event). */
export function recordRequests(): Recorded[] {
  const seen: Recorded[] = [];
  server.events.removeAllListeners();
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    const body = request.method === "GET" ? Promise.resolve(undefined) : request.clone().text().then((t) => (t ? JSON.parse(t) : undefined));
    seen.push({ method: request.method, path: url.pathname, search: url.searchParams, body, authorization: request.headers.get("authorization") });
  });
  return seen;
}

/** A valid 'Nuevo cargador' form with two connectors. */
export function validChargerForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: "Wallbox Sur",
    stationId: "",
    brandId: "5",
    model: "Commander 2",
    serialNumber: "WB-9",
    ocppIdentity: "AR-BUE-0099",
    heartbeatInterval: "300",
    "connectors[0].connectorId": "1",
    "connectors[0].standard": "IEC_62196_T2",
    "connectors[0].format": "SOCKET",
    "connectors[0].powerType": "AC_3_PHASE",
    "connectors[0].maxPowerKw": "22",
    "connectors[0].rateId": "",
    "connectors[1].connectorId": "2",
    "connectors[1].standard": "IEC_62196_T2_COMBO",
    "connectors[1].format": "CABLE",
    "connectors[1].powerType": "DC",
    "connectors[1].maxPowerKw": "7,4",
    "connectors[1].rateId": "9c4d5e6f-7a8b-4c9d-8e0f-3a4b5c6d7e8f",
    ...overrides,
  };
}

export const failNetwork = (path: string, method: "get" | "post" | "put" | "delete" = "get") => http[method](apiUrl(path), () => HttpResponse.error());
