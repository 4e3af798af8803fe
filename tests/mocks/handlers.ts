// msw handlers for the Business API over HTTP (API_BASE_URL = https://api.test): the happy path
// of every resource, answering the fixtures. Tests override a handler with server.use(...) to
// exercise errors (see problem()).
// Mercado Pago and Pagos360 are here too (MERCADOPAGO_TEST_URL, PAGOS360_TEST_URL): the in-memory
// fake of ./providers.ts, whose functions make a payment change as the provider would.
import { http, HttpResponse } from "msw";
import { fixtures, IDS } from "./fixtures";
import { providers } from "./providers";

/** The API_BASE_URL loader tests use: `{ apiFetch: (req) => fetch(req), apiBaseUrl: API_TEST_BASE_URL }`. */
export const API_TEST_BASE_URL = "https://api.test";

export const apiUrl = (path: string) => `${API_TEST_BASE_URL}${path}`;

/** An application/problem+json body like the API's. */
export function problem(status: number, title: string, extra: { detail?: string; errors?: Record<string, string[]>; type?: string } = {}) {
  return { type: extra.type ?? "about:blank", title, status, ...(extra.detail ? { detail: extra.detail } : {}), ...(extra.errors ? { errors: extra.errors } : {}) };
}

/** A problem+json response, for server.use(http.get(apiUrl(...), () => problemResponse(404, "…"))). */
export function problemResponse(status: number, title: string, extra: Parameters<typeof problem>[2] = {}) {
  return HttpResponse.json(problem(status, title, extra), { status, headers: { "Content-Type": "application/problem+json" } });
}

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  try {
    return (await request.json()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export const handlers = [
  // Account and profile
  http.get(apiUrl("/Account/Business"), () => HttpResponse.json(fixtures.accountBusiness)),
  http.post(apiUrl("/Account/SignIn"), () => HttpResponse.json(fixtures.accountBusiness)),
  http.post(apiUrl("/Account/Business"), async ({ request }) =>
    HttpResponse.json({ ...fixtures.businessUser, ...(await jsonBody(request)), status: "PENDING", photoUrl: null }, { status: 201 }),
  ),
  http.get(apiUrl("/Business/BusinessUser"), () => HttpResponse.json(fixtures.businessUser)),
  http.patch(apiUrl("/Business/BusinessUser/Update"), async ({ request }) => HttpResponse.json({ ...fixtures.businessUser, ...(await jsonBody(request)) })),
  http.patch(apiUrl("/Business/Images/ProfilePicture"), () => HttpResponse.json({ photoUrl: fixtures.businessUser.photoUrl })),
  http.delete(apiUrl("/Business/Images/ProfilePicture"), () => HttpResponse.json({ photoUrl: null })),
  http.post(apiUrl("/Business/Images"), () => HttpResponse.json({ url: `/api/images/${"b".repeat(64)}.jpg` }, { status: 201 })),

  // Catalogs
  http.get(apiUrl("/Business/Service"), () => HttpResponse.json(fixtures.services)),
  http.get(apiUrl("/Business/ChargerBrand"), () => HttpResponse.json(fixtures.chargerBrands)),
  http.get(apiUrl("/Driver/ConnectorType"), () => HttpResponse.json(fixtures.connectorTypes)),

  // Stations
  http.get(apiUrl("/Business/ChargingStation"), () => HttpResponse.json(fixtures.stations)),
  http.get(apiUrl("/Business/ChargingStation/Options"), () =>
    HttpResponse.json({ ...fixtures.stations, items: fixtures.stations.items.map((st) => ({ id: st.id, name: st.name, city: st.city })) }),
  ),
  http.post(apiUrl("/Business/ChargingStation"), async ({ request }) => HttpResponse.json({ ...fixtures.station, ...(await jsonBody(request)) }, { status: 201 })),
  http.get(apiUrl("/Business/ChargingStation/:id"), ({ params }) =>
    params.id === IDS.station ? HttpResponse.json(fixtures.station) : problemResponse(404, "La estación no existe."),
  ),
  http.put(apiUrl("/Business/ChargingStation/:id"), async ({ params, request }) => HttpResponse.json({ ...fixtures.station, ...(await jsonBody(request)), id: params.id })),
  http.delete(apiUrl("/Business/ChargingStation/:id"), () => new HttpResponse(null, { status: 204 })),

  // Chargers
  http.get(apiUrl("/Business/Charger"), () => HttpResponse.json(fixtures.chargers)),
  http.get(apiUrl("/Business/Charger/Options"), () =>
    HttpResponse.json({ ...fixtures.chargers, items: fixtures.chargers.items.map((ch) => ({ id: ch.id, name: ch.name, stationId: ch.stationId, stationName: ch.stationName })) }),
  ),
  http.post(apiUrl("/Business/Charger/Assign"), async ({ request }) => {
    const body = await jsonBody(request);
    return HttpResponse.json({ stationId: body.stationId, items: [{ ...fixtures.charger, stationId: body.stationId }] });
  }),
  http.post(apiUrl("/Business/Charger"), () => HttpResponse.json({ ...fixtures.charger, ocppPassword: "m0ck-Ocpp-Passw0rd-0123456789abc" }, { status: 201 })),
  http.get(apiUrl("/Business/Charger/:id"), ({ params }) =>
    params.id === IDS.charger ? HttpResponse.json(fixtures.charger) : problemResponse(404, "El cargador no existe."),
  ),
  http.get(apiUrl("/Business/Charger/:id/Event"), ({ params }) =>
    params.id === IDS.charger ? HttpResponse.json(fixtures.chargerEvents) : problemResponse(404, "El cargador no existe."),
  ),
  http.get(apiUrl("/Business/Charger/:id/Message"), ({ params }) =>
    params.id === IDS.charger ? HttpResponse.json(fixtures.ocppMessages) : problemResponse(404, "El cargador no existe."),
  ),
  http.get(apiUrl("/Business/Charger/:id/Firmware"), ({ params }) =>
    params.id === IDS.charger ? HttpResponse.json(fixtures.chargerFirmware) : problemResponse(404, "El cargador no existe."),
  ),
  http.get(apiUrl("/Business/Charger/:id/Diagnostics"), ({ params }) =>
    params.id === IDS.charger ? HttpResponse.json(fixtures.chargerDiagnostics) : problemResponse(404, "El cargador no existe."),
  ),
  http.put(apiUrl("/Business/Charger/:id"), async ({ params }) => HttpResponse.json({ ...fixtures.charger, id: params.id })),
  http.delete(apiUrl("/Business/Charger/:id"), () => new HttpResponse(null, { status: 204 })),
  http.post(apiUrl("/Business/Charger/:id/RotatePassword"), () => HttpResponse.json({ ...fixtures.charger, ocppPassword: "r0tated-Ocpp-Passw0rd-0123456789a" })),

  // Rates
  http.get(apiUrl("/Business/Fees"), () => HttpResponse.json(fixtures.rates)),
  http.get(apiUrl("/Business/Holidays"), () => HttpResponse.json({ dates: ["2027-03-15"], national: ["2026-12-08", "2026-12-25"] })),
  http.put(apiUrl("/Business/Holidays"), async ({ request }) => HttpResponse.json({ dates: [...((await jsonBody(request)).dates as string[])].sort(), national: ["2026-12-08", "2026-12-25"] })),
  http.post(apiUrl("/Business/Fees/Preview"), () =>
    HttpResponse.json({ price: fixtures.session.cost, billableIdleMinutes: 0, noShow: { feeCents: 150_000, vatCents: 26_033, totalCents: 150_000 } }),
  ),
  http.post(apiUrl("/Business/Fees"), async ({ request }) => HttpResponse.json({ ...fixtures.rate, ...(await jsonBody(request)), connectorCount: 0 }, { status: 201 })),
  http.get(apiUrl("/Business/Fees/:id"), ({ params }) => (params.id === IDS.rate ? HttpResponse.json(fixtures.rate) : problemResponse(404, "La tarifa no existe."))),
  http.put(apiUrl("/Business/Fees/:id"), async ({ params, request }) => HttpResponse.json({ ...fixtures.rate, ...(await jsonBody(request)), id: params.id })),
  http.delete(apiUrl("/Business/Fees/:id"), () => new HttpResponse(null, { status: 204 })),
  // The rate's prices now and no scheduled change.
  http.get(apiUrl("/Business/Fees/:id/Schedule"), ({ params }) => {
    if (params.id !== IDS.rate) return problemResponse(404, "La tarifa no existe.");
    const { id: _id, connectorCount: _count, ...current } = fixtures.rate as typeof fixtures.rate & { connectorCount?: number };
    return HttpResponse.json({ current, items: [] });
  }),

  // Activity
  http.get(apiUrl("/Business/Activity"), () => HttpResponse.json(fixtures.activity)),
  http.get(apiUrl("/Business/Activity/Export.csv"), () =>
    new HttpResponse("\uFEFFInicio;Fin\r\n01/03/2025 12:00;01/03/2025 13:10\r\n", {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="actividad-20250301.csv"' },
    }),
  ),
  http.get(apiUrl("/Business/Activity/:id"), ({ params }) => (params.id === IDS.session ? HttpResponse.json(fixtures.session) : problemResponse(404, "La carga no existe."))),

  // Home
  http.get(apiUrl("/Business/Dashboard"), () => HttpResponse.json(fixtures.dashboard)),
  http.get(apiUrl("/Business/Graphic"), ({ request }) => {
    const series = new URL(request.url).searchParams.get("series") ?? "energyRevenueByDay";
    return HttpResponse.json({ ...fixtures.graphic, series, points: series === "energyRevenueByDay" ? fixtures.graphic.points : [] });
  }),

  // Notifications
  http.get(apiUrl("/Business/Notification"), () => HttpResponse.json(fixtures.notifications)),
  http.get(apiUrl("/Business/Notification/UnreadCount"), () => HttpResponse.json({ unread: fixtures.notifications.unread })),
  http.post(apiUrl("/Business/Notification/ReadAll"), () => HttpResponse.json({ updated: 1, unread: 0 })),
  http.post(apiUrl("/Business/Notification/PushRegistration"), async ({ request }) => {
    const body = await jsonBody(request);
    return HttpResponse.json({ id: "3a8b9c0d-1e2f-4a3b-8c4d-7e8f9a0b1c2d", token: body.token, createTime: new Date().toISOString() });
  }),
  http.post(apiUrl("/Business/Notification/:id/Read"), ({ params }) =>
    HttpResponse.json({ ...fixtures.notifications.items[0], id: params.id, readAt: new Date().toISOString(), unread: 0 }),
  ),

  // Payments
  http.get(apiUrl("/MercadoPago/BusinessUser"), () => HttpResponse.json(fixtures.paymentAccount("MERCADOPAGO"))),
  http.put(apiUrl("/MercadoPago/BusinessUser"), () => HttpResponse.json(fixtures.paymentAccount("MERCADOPAGO"))),
  http.delete(apiUrl("/MercadoPago/BusinessUser"), () =>
    HttpResponse.json({ ...fixtures.paymentAccount("MERCADOPAGO"), connected: false, status: "DISCONNECTED", last4: null, accountLabel: null, environment: null, connectedAt: null, updatedAt: null }),
  ),
  http.get(apiUrl("/Pagos360/BusinessUser"), () => HttpResponse.json(fixtures.paymentAccount("PAGOS360"))),
  http.put(apiUrl("/Pagos360/BusinessUser"), () => HttpResponse.json(fixtures.paymentAccount("PAGOS360"))),
  http.delete(apiUrl("/Pagos360/BusinessUser"), () =>
    HttpResponse.json({ ...fixtures.paymentAccount("PAGOS360"), connected: false, status: "DISCONNECTED", last4: null, accountLabel: null, connectedAt: null, updatedAt: null }),
  ),
  http.get(apiUrl("/Business/Payments"), ({ request }) =>
    HttpResponse.json(new URL(request.url).searchParams.get("step") === "REFUND_PENDING" ? fixtures.refundPendingPage : fixtures.payments),
  ),
  // Reconciliation with the providers: one difference; …/Run answers it with the new ones notified.
  http.get(apiUrl("/Business/Payments/Reconciliation"), () => HttpResponse.json(fixtures.reconciliation)),
  http.post(apiUrl("/Business/Payments/Reconciliation/Run"), () => HttpResponse.json({ ...fixtures.reconciliation, reported: 1 })),
  http.get(apiUrl("/Business/Payments/Reconciliation/Export.csv"), () =>
    new HttpResponse("\uFEFFDiferencia;Proveedor\r\nMonto distinto;Mercado Pago\r\n", {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="conciliacion-20250222-20250228.csv"' },
    }),
  ),
  // Recording a refund made by hand (Pagos360): the payment, finished.
  http.post(apiUrl("/Business/Payments/:id/Refund"), async ({ params, request }) => {
    if (params.id !== IDS.refundPayment) return problemResponse(404, "El pago no existe.");
    const body = await jsonBody(request);
    const amount = typeof body.amountCents === "number" ? body.amountCents : fixtures.refundPendingPayment.refundOwedCents;
    return HttpResponse.json({ ...fixtures.refundPendingPayment, step: "FINISHED", refundedCents: amount, refundOwedCents: 0, netCents: fixtures.refundPendingPayment.amountCents - amount });
  }),

  // The payment providers (their own hosts): reset with providers.reset() after each test.
  ...providers.handlers,
];
