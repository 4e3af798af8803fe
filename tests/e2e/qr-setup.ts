import { expect } from "@playwright/test";
import { activeOperator } from "./fixtures";

// QR payments, browser tests: an operator of its own with a rate, a published station and a charger
// whose connector 1 is priced by that rate — made through the Business API, no UI. What the
// driver flow needs from the operator's screens (Mercado Pago, QR payment on) is left to the spec.

export interface QrOperator {
  email: string;
  password: string;
  token: string;
  stationId: string;
  stationName: string;
  chargerId: string;
  identity: string;
  ocppPassword: string;
}

/** The Business API of the server under test; an empty token calls a public endpoint. */
export async function apiCall<T = Record<string, unknown>>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}: ${res.status === 400 ? await res.clone().text() : ""}`).toBeLessThan(300);
  return (await res.json()) as T;
}

export async function qrOperator(base: string, opts: { tag: string; prefix: string; rate: { sessionFeeCents: number; pricePerKwhCents: number; bands?: unknown[] }; qr?: { enabled: boolean } }): Promise<QrOperator> {
  const password = "Clave-Segura-1";
  const { email, token } = await activeOperator(base, { prefix: opts.prefix, password, businessName: `Cargas con QR ${opts.tag} S.A.` });
  const rate = await apiCall<{ id: string }>(base, token, "POST", "/Business/Fees", { name: `QR ${opts.tag}`, vatIncluded: true, ...opts.rate });
  const stationName = `Estación QR ${opts.tag}`;
  const station = await apiCall<{ id: string }>(base, token, "POST", "/Business/ChargingStation", {
    name: stationName,
    address: "Av. Santa Fe 1234",
    city: "Buenos Aires",
    province: "AR-C",
    latitude: -34.5956,
    longitude: -58.3925,
    published: true,
    ...(opts.qr ? { qrPaymentEnabled: opts.qr.enabled } : {}),
  });
  const identity = `E2E-QR-${opts.tag}`;
  const charger = await apiCall<{ id: string; ocppPassword: string }>(base, token, "POST", "/Business/Charger", {
    name: `Cargador QR ${opts.tag}`,
    stationId: station.id,
    ocppIdentity: identity,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: rate.id }],
  });
  return { email, password, token, stationId: station.id, stationName, chargerId: charger.id, identity, ocppPassword: charger.ocppPassword };
}

/** "$ 1.234,56" (formatArs, with a non-breaking space or not) → 123456 centavos. */
export function arsToCents(text: string): number {
  const m = /(-?[\d.]+),(\d{2})/.exec(text.replace(/\s/g, " "));
  if (!m) throw new Error(`No es un monto en pesos: ${text}`);
  return Number(m[1].replace(/\./g, "")) * 100 + Number(m[2]);
}
