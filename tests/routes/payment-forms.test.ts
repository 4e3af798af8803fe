// Pagos: the overview (provider accounts + payments with filters and totals) and the provider
// forms (Mercado Pago, Pagos360): validation, PUT to the API, disconnect with confirmation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as payments from "~/routes/app/payment/index";
import * as providerScreen from "~/routes/app/payment/provider";
import { MP_CREDENTIAL_MESSAGE } from "#contract/schemas/payment";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { fixtures, IDS } from "../mocks/fixtures";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-pay", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "r-pay" });

/** The provider screen as each URL reaches it: its loader and action with that `:provider`. */
type ScreenArgs = Omit<Parameters<typeof providerScreen.loader>[0], "params">;
const screenFor = (provider: string) => ({
  loader: (a: ScreenArgs) => providerScreen.loader({ ...a, params: { provider } }),
  action: (a: ScreenArgs) => providerScreen.action({ ...a, params: { provider } }),
});
const mercadoPago = screenFor("mercadoPago");
const pagos360 = screenFor("pagos360");

const MP_PATH = "/payment/payments/mercadoPago";
const TEST_PUBLIC = "TEST-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d";
const TEST_TOKEN = "TEST-1234567890123456-031512-abcdef0123456789abcdef0123456789-987654321";

/** Answer PUTs to a provider path like the API and keep their bodies. */
function recordPuts(path = "/MercadoPago/BusinessUser") {
  const bodies: unknown[] = [];
  const provider = path.startsWith("/MercadoPago") ? "MERCADOPAGO" : "PAGOS360";
  server.use(
    http.put(apiUrl(path), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(fixtures.paymentAccount(provider));
    }),
  );
  return bodies;
}

describe("payments overview", () => {
  it("shows both accounts (last 4 only) and the payments with their totals", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => payments.loader(args(get("/payment", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.accounts.map((a: Loose) => [a.provider, a.status, a.last4])).toEqual([
      ["MERCADOPAGO", "CONNECTED", "4821"],
      ["PAGOS360", "CONNECTED", "4821"],
    ]);
    expect(JSON.stringify(res.data)).not.toMatch(/accessToken|apiKey/);
    expect(res.data.totals).toEqual(fixtures.payments.totals);
    expect(res.data.items).toHaveLength(1);
  });

  it("forwards valid filters and explains wrong ones", async () => {
    const { cookie } = await signedIn();
    let params: URLSearchParams | undefined;
    server.use(
      http.get(apiUrl("/Business/Payments"), ({ request }) => {
        params = new URL(request.url).searchParams;
        return HttpResponse.json(fixtures.payments);
      }),
    );
    const res = await run<Loose>(() => payments.loader(args(get("/payment?provider=MERCADOPAGO&status=PAID&from=2025-03-01&sort=-amountCents", cookie), ctx())));
    expect(Object.fromEntries(params!)).toEqual({ provider: "MERCADOPAGO", from: "2025-03-01", sort: "-amountCents" });
    expect(res.data.errors).toEqual({ status: "Elegí una opción válida." });
  });

  it("an account the API cannot read comes back as null (the card says so)", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Pagos360/BusinessUser"), () => HttpResponse.error()));
    const res = await run<Loose>(() => payments.loader(args(get("/payment", cookie), ctx())));
    expect(res.data.accounts[1]).toBeNull();
    expect(res.data.accounts[0].provider).toBe("MERCADOPAGO");
  });
});

describe("Mercado Pago form", () => {
  it("loader: the account status and the disconnect confirmation flag", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => mercadoPago.loader(args(get(`${MP_PATH}?confirm=disconnect`, cookie), ctx())));
    expect(res.data.account).toMatchObject({ provider: "MERCADOPAGO", last4: "4821" });
    expect(res.data.confirming).toBe(true);
  });

  it("refuses credentials that are not APP_USR-/TEST-, on the field, without calling the API", async () => {
    const { cookie } = await signedIn();
    const puts = recordPuts();
    const res = await run<Loose>(() => mercadoPago.action(args(post(MP_PATH, { intent: "connect", publicKey: "pk_live_123", accessToken: "" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ publicKey: [MP_CREDENTIAL_MESSAGE], accessToken: ["Este campo es obligatorio."] });
    expect(puts).toEqual([]);
    // Nothing typed is lost.
    expect(res.data.result.initialValue.publicKey).toBe("pk_live_123");
  });

  it("refuses mixing TEST- and APP_USR-", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() =>
      mercadoPago.action(args(post(MP_PATH, { intent: "connect", publicKey: TEST_PUBLIC, accessToken: "APP_USR-1234567890123456-abcdef" }, cookie), ctx())),
    );
    expect(res.status).toBe(400);
    expect(res.data.result.error.accessToken[0]).toMatch(/mismo entorno/);
  });

  it("valid TEST- credentials → PUT to the API, then Pagos with a success toast", async () => {
    const { cookie } = await signedIn();
    const puts = recordPuts();
    const res = await run(() => mercadoPago.action(args(post(MP_PATH, { intent: "connect", publicKey: TEST_PUBLIC, accessToken: TEST_TOKEN, accountLabel: "" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/payment");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
    expect(puts).toEqual([{ publicKey: TEST_PUBLIC, accessToken: TEST_TOKEN }]);
  });

  it("field errors from the API land on the fields", async () => {
    const { cookie } = await signedIn();
    server.use(http.put(apiUrl("/MercadoPago/BusinessUser"), () => problemResponse(422, "Datos inválidos.", { errors: { accessToken: ["El access token fue revocado."] } })));
    const res = await run<Loose>(() => mercadoPago.action(args(post(MP_PATH, { intent: "connect", publicKey: TEST_PUBLIC, accessToken: TEST_TOKEN }, cookie), ctx())));
    expect(res.status).toBe(422);
    expect(res.data.result.error).toEqual({ accessToken: ["El access token fue revocado."] });
  });

  it("the API unreachable → a Spanish form error, 503, what was typed kept", async () => {
    const { cookie } = await signedIn();
    server.use(http.put(apiUrl("/MercadoPago/BusinessUser"), () => HttpResponse.error()));
    const context = ctx();
    const res = await run<Loose>(() => mercadoPago.action(args(post(MP_PATH, { intent: "connect", publicKey: TEST_PUBLIC, accessToken: TEST_TOKEN }, cookie), context)));
    expect(res.status).toBe(503);
    expect(res.data.result.error[""][0]).toMatch(/No pudimos guardar las credenciales de Mercado Pago/);
    expect(res.data.result.initialValue.publicKey).toBe(TEST_PUBLIC);
    expect(pendingToast(context)?.type).toBe("error");
  });

  it("disconnect → DELETE, back to the form with a toast", async () => {
    const { cookie } = await signedIn();
    const deletes: string[] = [];
    server.events.on("request:start", ({ request }) => {
      if (request.method === "DELETE") deletes.push(new URL(request.url).pathname);
    });
    const res = await run(() => mercadoPago.action(args(post(MP_PATH, { intent: "disconnect" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe(MP_PATH);
    expect(deletes).toEqual(["/MercadoPago/BusinessUser"]);
  });
});

describe("Pagos360 form", () => {
  const P360 = "/payment/payments/pagos360";

  it("a provider the screen does not know → the 404 screen", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => screenFor("paypal").loader(args(get("/payment/payments/paypal", cookie), ctx())));
    expect(res.thrown).toBe(true);
    expect(res.status).toBe(404);
  });

  it("validates the API key and the account name", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => pagos360.action(args(post(P360, { intent: "connect", apiKey: "corta", accountName: "" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ apiKey: ["La API key de Pagos360 tiene al menos 16 caracteres."], accountName: ["Este campo es obligatorio."] });
  });

  it("valid → PUT to /Pagos360/BusinessUser", async () => {
    const { cookie } = await signedIn();
    const puts = recordPuts("/Pagos360/BusinessUser");
    const res = await run(() => pagos360.action(args(post(P360, { intent: "connect", apiKey: "p360-test-0123456789abcdef", accountName: "Cargas del Sur" }, cookie), ctx())));
    expect(res.location).toBe("/payment");
    expect(puts).toEqual([{ apiKey: "p360-test-0123456789abcdef", accountName: "Cargas del Sur" }]);
  });
});

// Pagos360 has no refund call, so what its drivers are owed waits as
// "Devolución pendiente" in Pagos until the operator refunds it there and records it here.
describe("recording a refund made by hand (Pagos360)", () => {
  const PID = fixtures.refundPendingPayment.id;
  const PENDING = `/payment?step=REFUND_PENDING&refund=${PID}`;

  /** Answer POST …/Refund like the API and keep what it was sent. */
  function recordRefunds(answer?: () => Response) {
    const seen: { path: string; body: unknown; key: string | null }[] = [];
    server.use(
      http.post(apiUrl("/Business/Payments/:id/Refund"), async ({ request, params }) => {
        seen.push({ path: new URL(request.url).pathname, body: await request.json(), key: request.headers.get("idempotency-key") });
        return answer ? answer() : HttpResponse.json({ ...fixtures.refundPendingPayment, step: "FINISHED", refundedCents: 380_000, refundOwedCents: 0, id: params.id });
      }),
    );
    return seen;
  }

  it("the overview counts what is owed, and ?refund= asks to confirm one, with a one-time form token", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => payments.loader(args(get(PENDING, cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.filters.step).toBe("REFUND_PENDING");
    expect(res.data.totals).toMatchObject({ refundPendingCount: 1, refundOwedCents: 380_000 });
    expect(res.data.refund.payment).toMatchObject({ id: PID, step: "REFUND_PENDING", refundOwedCents: 380_000, provider: "PAGOS360" });
    expect(res.data.refund.formToken).toMatch(/^[0-9a-f-]{36}$/);
    // One not in the list (already recorded, or another company's): nothing to confirm.
    const gone = await run<Loose>(() => payments.loader(args(get(`/payment?step=REFUND_PENDING&refund=${IDS.payment}`, cookie), ctx())));
    expect(gone.data.refund).toMatchObject({ id: IDS.payment, payment: null });
  });

  it("records the amount typed in pesos with the form's token as Idempotency-Key, then back to the list with a toast", async () => {
    const { cookie } = await signedIn();
    const seen = recordRefunds();
    const token = crypto.randomUUID();
    const res = await run(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "3.800,00", formToken: token }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/payment?step=REFUND_PENDING");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
    expect(seen).toEqual([{ path: `/Business/Payments/${PID}/Refund`, body: { amountCents: 380_000 }, key: token }]);
  });

  it("an empty amount records what is owed (the API decides it)", async () => {
    const { cookie } = await signedIn();
    const seen = recordRefunds();
    await run(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "" }, cookie), ctx())));
    expect(seen.map((s) => s.body)).toEqual([{}]);
  });

  it.each([
    ["abc", "Ingresá un monto en pesos, por ejemplo 3.800 o 3800,50."],
    ["12,345", "Ingresá un monto en pesos, por ejemplo 3.800 o 3800,50."],
    ["0", "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
    ["-5", "Ingresá el monto que devolviste: tiene que ser mayor que cero."],
  ])("a bad amount (%s) is a Spanish field error, kept as typed, without calling the API", async (amount, message) => {
    const { cookie } = await signedIn();
    const seen = recordRefunds();
    const context = ctx();
    const res = await run<Loose>(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount }, cookie), context)));
    expect(res.status).toBe(422);
    expect(res.data).toEqual({ refundError: message, amount });
    expect(pendingToast(context)?.type).toBe("error");
    expect(seen).toEqual([]);
  });

  it("the API's field error (more than is owed) lands on the amount", async () => {
    const { cookie } = await signedIn();
    const message = "No podés registrar más de lo que se debe: $ 3.800,00.";
    recordRefunds(() => problemResponse(422, message, { errors: { amountCents: [message] } }));
    const res = await run<Loose>(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "4.000" }, cookie), ctx())));
    expect(res.status).toBe(422);
    expect(res.data).toEqual({ refundError: message, amount: "4.000" });
  });

  it("nothing owed any more (409) or no such payment (404): back to the list with the reason", async () => {
    const { cookie } = await signedIn();
    recordRefunds(() => problemResponse(409, "Este pago no tiene una devolución pendiente."));
    const conflict = await run(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "" }, cookie), ctx())));
    expect(conflict.status).toBe(302);
    expect(conflict.location).toBe("/payment?step=REFUND_PENDING");
    recordRefunds(() => problemResponse(404, "El pago no existe."));
    const missing = await run(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "" }, cookie), ctx())));
    expect(missing.status).toBe(302);
  });

  it("the API unreachable: 503 with a Spanish message, the amount kept", async () => {
    const { cookie } = await signedIn();
    recordRefunds(() => HttpResponse.error() as unknown as Response);
    const res = await run<Loose>(() => payments.action(args(post(PENDING, { intent: "refund", paymentId: PID, amount: "3.800" }, cookie), ctx())));
    expect(res.status).toBe(503);
    expect(res.data).toEqual({ refundError: "No pudimos registrar la devolución en este momento. Probá de nuevo en unos minutos.", amount: "3.800" });
  });

  it("anything else posted to Pagos is not understood", async () => {
    const { cookie } = await signedIn();
    const seen = recordRefunds();
    const res = await run(() => payments.action(args(post("/payment", { intent: "refund", paymentId: "nope", amount: "1" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(seen).toEqual([]);
  });
});

// After a chargeback or a dispute the operator may refuse the driver's next payments at its QR
// pages: one button on the payment's row, a plain form (no JavaScript needed).
describe("blocking a disputing driver from the QR pages", () => {
  const PID = IDS.payment;

  function recordBlocks(answer?: () => Response) {
    const seen: string[] = [];
    const handle = async ({ request, params }: { request: Request; params: Record<string, unknown> }) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return answer ? answer() : HttpResponse.json({ ...fixtures.payments.items[0], id: params.id, status: "CHARGED_BACK", driverBlocked: request.method === "POST" });
    };
    server.use(http.post(apiUrl("/Business/Payments/:id/BlockDriver"), handle), http.delete(apiUrl("/Business/Payments/:id/BlockDriver"), handle));
    return seen;
  }

  it("block → POST …/BlockDriver, back to the list where it was with a toast; unblock → DELETE", async () => {
    const { cookie } = await signedIn();
    const seen = recordBlocks();
    const context = ctx();
    const res = await run(() => payments.action(args(post("/payment?status=CHARGED_BACK", { intent: "block", paymentId: PID }, cookie), context)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/payment?status=CHARGED_BACK");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
    const again = await run(() => payments.action(args(post("/payment", { intent: "unblock", paymentId: PID }, cookie), ctx())));
    expect(again.status).toBe(302);
    expect(seen).toEqual([`POST /Business/Payments/${PID}/BlockDriver`, `DELETE /Business/Payments/${PID}/BlockDriver`]);
  });

  it("a payment that is not disputed (409): back to the list with the API's reason, never a 500", async () => {
    const { cookie } = await signedIn();
    const reason = "Solo podés bloquear al conductor de un pago en disputa o con contracargo.";
    recordBlocks(() => problemResponse(409, reason));
    const res = await run(() => payments.action(args(post("/payment", { intent: "block", paymentId: PID }, cookie), ctx())));
    expect(res.status).toBe(302);
    const toast = /toast-session=([^.;]+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1] ?? "";
    expect(Buffer.from(toast, "base64").toString("utf8")).toContain("en disputa o con contracargo");
  });

  it("the API unreachable: back to the list with a Spanish message", async () => {
    const { cookie } = await signedIn();
    recordBlocks(() => HttpResponse.error() as unknown as Response);
    const res = await run(() => payments.action(args(post("/payment", { intent: "block", paymentId: PID }, cookie), ctx())));
    expect(res.status).toBe(302);
  });

  it("a payment id that is not one is not sent", async () => {
    const { cookie } = await signedIn();
    const seen = recordBlocks();
    const res = await run(() => payments.action(args(post("/payment", { intent: "block", paymentId: "nope" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(seen).toEqual([]);
  });
});
