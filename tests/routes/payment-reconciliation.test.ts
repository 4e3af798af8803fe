// Pagos → Conciliación: the period filter (a GET form), the differences, the empty state,
// «Conciliar ahora» (POST …/Run, a toast) and the CSV download, against the API mocked by msw.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as screen from "~/routes/app/payment/reconciliation";
import * as csv from "~/routes/app/payment/reconciliation-export";
import { EMPTY_TEXT } from "~/components/payment/Reconciliation";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { fixtures } from "../mocks/fixtures";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-recon", email: "cuentas@cargasdelsur.com.ar" }, { refreshToken: "r-recon" });

/** The query strings the API got for a path. */
function seen(path: string) {
  const queries: string[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === path) queries.push(url.search);
  });
  return queries;
}

describe("conciliation view", () => {
  it("shows the period's differences and the providers' totals", async () => {
    const { cookie } = await signedIn();
    const queries = seen("/Business/Payments/Reconciliation");
    const res = await run<Loose>(() => screen.loader(args(get("/payment/reconciliation?from=2025-02-22&to=2025-02-28", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(queries).toEqual(["?from=2025-02-22&to=2025-02-28"]);
    expect(res.data.report.differences).toEqual(fixtures.reconciliation.differences);
    expect(res.data.report.totals).toEqual({ grossCents: 1_000_000, feeCents: 48_300, refundedCents: 0, netCents: 951_700 });
    expect(res.data.errors).toEqual({});
  });

  it("a bad date is a Spanish field error and is not sent", async () => {
    const { cookie } = await signedIn();
    const queries = seen("/Business/Payments/Reconciliation");
    const res = await run<Loose>(() => screen.loader(args(get("/payment/reconciliation?from=2025-13-40", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.errors.from).toMatch(/fecha/i);
    expect(queries).toEqual([""]);
  });

  it("the API's refusal of the period shows on its field", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Payments/Reconciliation"), () => problemResponse(422, "Revisá los datos.", { errors: { from: ["La conciliación abarca hasta 31 días: elegí un período más corto."] } })));
    const res = await run<Loose>(() => screen.loader(args(get("/payment/reconciliation?from=2025-01-01", cookie), ctx())));
    expect(res.data.report).toBeNull();
    expect(res.data.error).toBeNull();
    expect(res.data.errors.from).toBe("La conciliación abarca hasta 31 días: elegí un período más corto.");
  });

  it("no differences: the empty state's words", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Payments/Reconciliation"), () => HttpResponse.json({ ...fixtures.reconciliation, differences: [] })));
    const res = await run<Loose>(() => screen.loader(args(get("/payment/reconciliation", cookie), ctx())));
    expect(res.data.report.differences).toEqual([]);
    expect(EMPTY_TEXT).toBe("Sin diferencias: cada pago coincide con el proveedor.");
  });

  it("«Conciliar ahora» posts the period to …/Run and comes back with a toast", async () => {
    const { cookie } = await signedIn();
    const queries = seen("/Business/Payments/Reconciliation/Run");
    const res = await run<Loose>(() => screen.action(args(post("/payment/reconciliation?from=2025-02-22&to=2025-02-28", { intent: "run" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/payment/reconciliation?from=2025-02-22&to=2025-02-28");
    expect(queries).toEqual(["?from=2025-02-22&to=2025-02-28"]);
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
  });

  it("an unknown intent is refused with a toast, nothing sent", async () => {
    const { cookie } = await signedIn();
    const queries = seen("/Business/Payments/Reconciliation/Run");
    const res = await run<Loose>(() => screen.action(args(post("/payment/reconciliation", { intent: "borrar" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(queries).toEqual([]);
  });

  it("«Descargar CSV» streams the API's file", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => csv.loader(args(get("/payment/reconciliation/export.csv?from=2025-02-22&to=2025-02-28", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="conciliacion-20250222-20250228.csv"');
    expect(String(res.data)).toContain("Monto distinto;Mercado Pago");
  });
});
