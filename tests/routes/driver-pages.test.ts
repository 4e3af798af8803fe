// The public driver pages' loaders and actions against the Business API's /Driver
// endpoints (msw): the connector page and its "Pagar" form, the payment status page and
// "Detener carga", and /cargar where a driver types a connector's short code.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { BLOCKED_DRIVER_MESSAGE } from "../../payments/blocked-drivers";
import * as connector from "~/routes/cargar/connector";
import * as payment from "~/routes/cargar/payment";
import * as invoicePdf from "~/routes/cargar/invoice-pdf";
import * as typeCode from "~/routes/cargar/index";
import type { ChargePointInfo, PaymentView } from "#contract/dto";
import { APP, run, args, type Loose } from "./auth-helpers";
import { apiUrl, chargerContext, recordRequests, server } from "./charger-helpers";
import { flashToast } from "./station-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const INFO: ChargePointInfo = {
  stationName: "Estación Palermo",
  address: "Av. Santa Fe 3253",
  city: "Buenos Aires",
  chargerName: "Wallbox Norte",
  connectorNumber: 1,
  connectorType: "Tipo 2",
  maxPowerKw: 22,
  state: "AVAILABLE",
  stateLabel: "Disponible",
  rate: { pricePerKwhCents: 35_000, pricePerMinuteCents: 0, sessionFeeCents: 0, idleGraceMinutes: 10, idlePricePerMinuteCents: 5_000, idleMaxCents: null, vatIncluded: true, vatRateBp: 2100 },
  providers: ["MERCADOPAGO"],
  minCents: 100_000,
  maxCents: 2_000_000,
  presets: [200_000, 500_000],
  unavailable: null,
} as ChargePointInfo;

const PID = "3f9a1c2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b";
const VIEW = {
  id: PID,
  provider: "MERCADOPAGO",
  step: "CHARGING",
  status: "APPROVED",
  amountCents: 500_000,
  chargedCents: null,
  refundedCents: 0,
  checkoutUrl: null,
  failureReason: null,
  stationName: "Estación Palermo",
  chargerName: "Wallbox Norte",
  connectorNumber: 1,
  createdAt: "2025-06-15T17:00:00.000Z",
  session: { startedAt: "2025-06-15T17:01:00.000Z", stoppedAt: null, energyWh: 3200, minutes: 12, costCents: 112_000, status: "ACTIVE", price: null },
  canStop: true,
  stopRequested: false,
  receipt: null,
} as unknown as PaymentView;

const page = (path: string, init?: RequestInit) => new Request(`${APP}${path}`, init);
const form = (path: string, fields: Record<string, string>) =>
  page(path, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
const params = { identity: "AR-BUE-0001", connector: "1" };

describe("the connector page (/cargar/{identity}/{connector})", () => {
  it("shows the charge point and a one-time key for the 'Pagar' form; no sign-in", async () => {
    server.use(http.get(apiUrl("/Driver/Charge/:identity/:connector"), () => HttpResponse.json(INFO)));
    const seen = recordRequests();
    const a = await run<Loose>(() => connector.loader(args(page("/cargar/AR-BUE-0001/1"), chargerContext(), params)));
    const b = await run<Loose>(() => connector.loader(args(page("/cargar/AR-BUE-0001/1"), chargerContext(), params)));
    expect(a.status).toBe(200);
    expect(a.data.info).toEqual(INFO);
    expect(a.data.requestKey).toMatch(/^[0-9a-f]{32}$/);
    expect(b.data.requestKey).not.toBe(a.data.requestKey);
    expect(seen[0].path).toBe("/Driver/Charge/AR-BUE-0001/1");
    expect(seen[0].authorization).toBeNull();
  });

  it("an unknown charger is a 404 page; an API that is down, a 503 in Spanish", async () => {
    server.use(http.get(apiUrl("/Driver/Charge/:identity/:connector"), () => HttpResponse.json({ title: "x" }, { status: 404 })));
    const missing = await run<Loose>(() => connector.loader(args(page("/cargar/NOPE/1"), chargerContext(), { identity: "NOPE", connector: "1" })));
    expect(missing.thrown).toBe(true);
    expect(missing.status).toBe(404);
    server.use(http.get(apiUrl("/Driver/Charge/:identity/:connector"), () => HttpResponse.error()));
    const down = await run<Loose>(() => connector.loader(args(page("/cargar/AR-BUE-0001/1"), chargerContext(), params)));
    expect(down.status).toBe(503);
    expect(down.data.message).toMatch(/^No pudimos mostrar el cargador/);
  });

  it("'Pagar' with a valid amount goes to the provider's checkout (303) with the form's values", async () => {
    let body: Loose;
    server.use(
      http.post(apiUrl("/Driver/Charge/:identity/:connector"), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ paymentId: PID, checkoutUrl: "http://127.0.0.1:4000/checkout/mp/abc" }, { status: 201 });
      }),
    );
    const res = await run(() =>
      connector.action(
        args(form("/cargar/AR-BUE-0001/1", { amount: "200000", customAmount: "3.500", email: "ana@example.com", acceptTerms: "on", provider: "MERCADOPAGO", requestKey: "k".repeat(32) }), chargerContext(), params),
      ),
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe("http://127.0.0.1:4000/checkout/mp/abc");
    // A custom amount wins over the preset, in centavos.
    expect(body).toEqual({ amountCents: 350_000, email: "ana@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey: "k".repeat(32) });
  });

  it("an amount that is not one is refused on its field without calling the API; the API's field errors land on theirs", async () => {
    const seen = recordRequests();
    const bad = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { customAmount: "mucho", email: "ana@example.com" }), chargerContext(), params)));
    expect(bad.status).toBe(400);
    expect(bad.data.errors.amount).toBe("Elegí un monto o escribí uno en pesos (por ejemplo 3500).");
    expect(bad.data.values).toMatchObject({ customAmount: "mucho", email: "ana@example.com" });
    expect(seen).toHaveLength(0);

    server.use(
      http.post(apiUrl("/Driver/Charge/:identity/:connector"), () =>
        HttpResponse.json({ title: "Revisá los datos.", status: 422, errors: { amountCents: ["El monto tiene que estar entre $ 1.000 y $ 20.000."], acceptTerms: ["Aceptá las condiciones."] } }, { status: 422 }),
      ),
    );
    const refused = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { amount: "100", email: "ana@example.com", provider: "MERCADOPAGO" }), chargerContext(), params)));
    expect(refused.status).toBe(422);
    expect(refused.data.errors).toEqual({ amount: "El monto tiene que estar entre $ 1.000 y $ 20.000.", acceptTerms: "Aceptá las condiciones." });
  });

  it("a driver the station blocked is told on the e-mail field, with what they typed kept", async () => {
    server.use(
      http.post(apiUrl("/Driver/Charge/:identity/:connector"), () =>
        HttpResponse.json({ title: BLOCKED_DRIVER_MESSAGE, status: 422, errors: { email: [BLOCKED_DRIVER_MESSAGE] } }, { status: 422 }),
      ),
    );
    const res = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { amount: "200000", email: "ana@example.com", acceptTerms: "on", provider: "MERCADOPAGO" }), chargerContext(), params)));
    expect(res.status).toBe(422);
    expect(res.data.errors).toEqual({ email: BLOCKED_DRIVER_MESSAGE });
    expect(res.data.values).toMatchObject({ email: "ana@example.com" });
  });

  it("a driver who wants a Factura A sends the company's CUIT and name; the API's refusal of the CUIT lands on its field", async () => {
    let body: Loose;
    server.use(
      http.post(apiUrl("/Driver/Charge/:identity/:connector"), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ paymentId: PID, checkoutUrl: "http://127.0.0.1:4000/checkout/mp/abc" }, { status: 201 });
      }),
    );
    const fields = { amount: "200000", email: "ana@example.com", acceptTerms: "on", provider: "MERCADOPAGO", requestKey: "k".repeat(32), buyerCuit: "30-50001091-2", buyerName: "Flota Sur SA" };
    const res = await run(() => connector.action(args(form("/cargar/AR-BUE-0001/1", fields), chargerContext(), params)));
    expect(res.status).toBe(303);
    expect(body).toMatchObject({ buyerCuit: "30-50001091-2", buyerName: "Flota Sur SA" });
    server.use(
      http.post(apiUrl("/Driver/Charge/:identity/:connector"), () =>
        HttpResponse.json({ title: "Revisá los datos.", status: 422, errors: { buyerCuit: ["Revisá el CUIT: tiene que tener 11 dígitos y un dígito verificador válido."] } }, { status: 422 }),
      ),
    );
    const refused = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { ...fields, buyerCuit: "30-50001091-3" }), chargerContext(), params)));
    expect(refused.status).toBe(422);
    expect(refused.data.errors).toEqual({ buyerCuit: "Revisá el CUIT: tiene que tener 11 dígitos y un dígito verificador válido." });
    expect(refused.data.values).toMatchObject({ buyerCuit: "30-50001091-3", buyerName: "Flota Sur SA" });
  });

  it("a charger that cannot start (409) says why on the form; an API that is down, a 503", async () => {
    server.use(http.post(apiUrl("/Driver/Charge/:identity/:connector"), () => HttpResponse.json({ title: "El cargador está sin conexión." }, { status: 409 })));
    const conflict = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { amount: "200000", email: "a@b.co", acceptTerms: "on" }), chargerContext(), params)));
    expect(conflict.status).toBe(409);
    expect(conflict.data.errors.form).toBe("El cargador está sin conexión.");
    server.use(http.post(apiUrl("/Driver/Charge/:identity/:connector"), () => HttpResponse.error()));
    const down = await run<Loose>(() => connector.action(args(form("/cargar/AR-BUE-0001/1", { amount: "200000", email: "a@b.co", acceptTerms: "on" }), chargerContext(), params)));
    expect(down.status).toBe(503);
  });
});

describe("the payment page (/cargar/pago/{id}?t=…)", () => {
  it("reads the payment with the link's secret", async () => {
    let token: string | null = null;
    server.use(
      http.get(apiUrl("/Driver/Payment/:id"), ({ request }) => {
        token = new URL(request.url).searchParams.get("t");
        return HttpResponse.json(VIEW);
      }),
    );
    const res = await run<Loose>(() => payment.loader(args(page(`/cargar/pago/${PID}?t=secreto`), chargerContext(), { paymentId: PID })));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ payment: VIEW, token: "secreto" });
    expect(token).toBe("secreto");
  });

  it("a wrong secret or unknown payment is a 404", async () => {
    server.use(http.get(apiUrl("/Driver/Payment/:id"), () => HttpResponse.json({ title: "x" }, { status: 404 })));
    const res = await run<Loose>(() => payment.loader(args(page(`/cargar/pago/${PID}?t=otro`), chargerContext(), { paymentId: PID })));
    expect(res.status).toBe(404);
    expect(res.data.message).toBe("No encontramos ese pago.");
  });

  it("the receipt's invoice link hands over the PDF for the link's secret, no sign-in; another secret is a 404", async () => {
    let token: string | null = null;
    server.use(
      http.get(apiUrl("/Driver/Payment/:id/Invoice/Pdf"), ({ request }) => {
        token = new URL(request.url).searchParams.get("t");
        if (token !== "secreto") return HttpResponse.json({ title: "La factura autorizada no existe." }, { status: 404 });
        return new HttpResponse("%PDF-1.3 factura", { headers: { "Content-Type": "application/pdf", "Content-Disposition": 'inline; filename="Factura-B-0003-00000042.pdf"' } });
      }),
    );
    const seen = recordRequests();
    const res = (await invoicePdf.loader(args(page(`/cargar/pago/${PID}/factura?t=secreto`), chargerContext(), { paymentId: PID }))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="Factura-B-0003-00000042.pdf"');
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.text()).toBe("%PDF-1.3 factura");
    expect(seen[0].authorization).toBeNull();
    const other = await run<Loose>(() => invoicePdf.loader(args(page(`/cargar/pago/${PID}/factura?t=otro`), chargerContext(), { paymentId: PID })));
    expect(other.status).toBe(404);
    expect(other.data.message).toBe("No encontramos esa factura.");
  });

  it("'Detener carga' posts the secret and comes back with a toast; a refusal says why", async () => {
    let body: Loose;
    server.use(
      http.post(apiUrl("/Driver/Payment/:id/Stop"), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const ok = await run(() => payment.action(args(form(`/cargar/pago/${PID}`, { t: "secreto" }), chargerContext(), { paymentId: PID })));
    expect(ok.status).toBe(302);
    expect(ok.location).toBe(`/cargar/pago/${PID}?t=secreto`);
    expect(body).toEqual({ token: "secreto" });
    expect(await flashToast(ok)).toMatchObject({ type: "success", message: "Pedimos al cargador que detenga la carga." });

    server.use(http.post(apiUrl("/Driver/Payment/:id/Stop"), () => HttpResponse.json({ title: "La carga ya terminó." }, { status: 409 })));
    const refused = await run(() => payment.action(args(form(`/cargar/pago/${PID}`, { t: "secreto" }), chargerContext(), { paymentId: PID })));
    expect(await flashToast(refused)).toMatchObject({ type: "error", message: "La carga ya terminó." });
  });
});

describe("/cargar: typing a connector's short code", () => {
  it("shows the form; a valid code goes to the connector's page; another one stays with a message", async () => {
    const empty = await run<Loose>(() => typeCode.loader(args(page("/cargar"), chargerContext(), {})));
    expect(empty.data).toEqual({ code: "", error: null });
    const ok = await run(() => typeCode.loader(args(page("/cargar?codigo=AR-BUE-0001-2"), chargerContext(), {})));
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/cargar/AR-BUE-0001/2");
    const bad = await run<Loose>(() => typeCode.loader(args(page("/cargar?codigo=hola"), chargerContext(), {})));
    expect(bad.data).toEqual({ code: "hola", error: "Revisá el código: es el que figura debajo del QR, por ejemplo AR-BUE-0001-1." });
  });
});
