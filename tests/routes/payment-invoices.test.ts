// Pagos → Comprobantes: the filters (a GET form; a bad one is a Spanish field error and is not
// sent), the pending count and ARCA's reason, «Reintentar» (POST …/Retry, a toast), the PDF and the
// Libro IVA Ventas download, against the API mocked by msw.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as screen from "~/routes/app/payment/invoice";
import * as pdf from "~/routes/app/payment/invoice-pdf";
import * as csv from "~/routes/app/payment/invoice-export";
import * as detail from "~/routes/app/payment/invoice-detail";
import type { InvoiceDetailDto, InvoiceDto, InvoicePage } from "#contract/dto";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-invoices", email: "cuentas@cargasdelsur.com.ar" }, { refreshToken: "r-invoices" });
const ID = "5b0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b";

const invoice = (over: Partial<InvoiceDto> = {}): InvoiceDto => ({
  id: ID,
  type: 6,
  typeLabel: "Factura B",
  pointOfSale: 3,
  number: 42,
  formattedNumber: "0003-00000042",
  cae: "76123456789012",
  caeDueDate: "2026-12-08",
  status: "AUTHORIZED",
  totalCents: 121_000,
  netCents: 100_000,
  vatCents: 21_000,
  exemptCents: 0,
  receiver: { docType: 99, docNumber: "0", name: null },
  paymentId: "9b0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b",
  sessionIds: null,
  accessGroup: null,
  billingMonth: null,
  creditNoteOf: null,
  issueDate: "2026-11-28",
  serviceFrom: "2026-11-28",
  serviceTo: "2026-11-28",
  attempts: 0,
  nextAttemptAt: null,
  lastError: null,
  createdAt: "2026-11-28T15:00:00.000Z",
  ...over,
});

function listed(page: Partial<InvoicePage> = {}) {
  const queries: string[] = [];
  server.use(
    http.get(apiUrl("/Business/Invoice"), ({ request }) => {
      queries.push(new URL(request.url).search);
      return HttpResponse.json({ items: [invoice(), invoice({ id: "6b0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b", status: "REJECTED", number: null, formattedNumber: null, cae: null, caeDueDate: null, lastError: "ARCA rechazó el comprobante: El campo DocNro es inválido. (código 10015)" })], total: 2, page: 1, pageSize: 20, pendingCount: 3, ...page } satisfies InvoicePage);
    }),
  );
  return queries;
}

describe("Comprobantes", () => {
  it("lists the vouchers with the pending count and ARCA's reason, the filters sent to the API", async () => {
    const { cookie } = await signedIn();
    const queries = listed();
    const res = await run<Loose>(() => screen.loader(args(get("/payment/invoice?status=REJECTED&type=6&from=2026-11-01", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(queries).toEqual(["?type=6&status=REJECTED&from=2026-11-01"]);
    expect(res.data.pendingCount).toBe(3);
    expect(res.data.items[1].lastError).toBe("ARCA rechazó el comprobante: El campo DocNro es inválido. (código 10015)");
    // The CSV keeps the period and the type (the book is of authorised vouchers).
    expect(res.data.exportQuery).toBe("type=6&from=2026-11-01");
  });

  it("a bad filter is a Spanish field error and is not sent", async () => {
    const { cookie } = await signedIn();
    const queries = listed();
    const res = await run<Loose>(() => screen.loader(args(get("/payment/invoice?type=7&from=2026-13-40", cookie), ctx())));
    expect(res.data.errors.type).toBe("Elegí una opción válida.");
    expect(res.data.errors.from).toMatch(/fecha/i);
    expect(queries).toEqual([""]);
  });

  it("the list unavailable says so instead of an empty list", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Invoice"), () => problemResponse(503, "La base de datos no responde.")));
    const res = await run<Loose>(() => screen.loader(args(get("/payment/invoice", cookie), ctx())));
    expect(res.data.error).toMatch(/No pudimos/);
    expect(res.data.items).toEqual([]);
  });

  it("«Reintentar» posts …/Retry and comes back to the same list with a toast", async () => {
    const { cookie } = await signedIn();
    const hits: string[] = [];
    server.use(
      http.post(apiUrl(`/Business/Invoice/${ID}/Retry`), () => {
        hits.push(ID);
        return HttpResponse.json(invoice({ status: "PENDING" }));
      }),
    );
    const res = await run<Loose>(() => screen.action(args(post("/payment/invoice?status=REJECTED", { intent: "retry", invoiceId: ID }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/payment/invoice?status=REJECTED");
    expect(hits).toEqual([ID]);
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
  });

  it("a malformed id is refused with a toast and an unknown intent is not allowed; nothing sent", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => screen.action(args(post("/payment/invoice", { intent: "retry", invoiceId: "x" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
    const unknown = await run<Loose>(() => screen.action(args(post("/payment/invoice", { intent: "borrar", invoiceId: ID }, cookie), ctx())));
    expect(unknown.status).toBe(403);
  });

  it("the PDF streams the API's file inline; another company's is the 404 screen", async () => {
    const { cookie } = await signedIn();
    server.use(
      http.get(apiUrl(`/Business/Invoice/${ID}/Pdf`), () => new HttpResponse("%PDF-1.3 fake", { headers: { "Content-Type": "application/pdf", "Content-Disposition": 'inline; filename="Factura-B-0003-00000042.pdf"' } })),
      http.get(apiUrl("/Business/Invoice/:other/Pdf"), () => problemResponse(404, "El comprobante autorizado no existe.")),
    );
    const res = await run<Loose>(() => pdf.loader(args(get(`/payment/invoice/${ID}/pdf`, cookie), ctx(), { id: ID })));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe('inline; filename="Factura-B-0003-00000042.pdf"');
    const other = "7b0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b";
    const missing = await run<Loose>(() => pdf.loader(args(get(`/payment/invoice/${other}/pdf`, cookie), ctx(), { id: other })));
    expect(missing.status).toBe(404);
  });

  it("«Descargar CSV» streams the Libro IVA Ventas", async () => {
    const { cookie } = await signedIn();
    server.use(
      http.get(apiUrl("/Business/Invoice/Export.csv"), () => new HttpResponse("\uFEFFFecha;Tipo\r\n2026-11-28;Factura B\r\n", { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="libro-iva-ventas-20261101.csv"' } })),
    );
    const res = await run<Loose>(() => csv.loader(args(get("/payment/invoice/export.csv?from=2026-11-01", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(String(res.data)).toContain("2026-11-28;Factura B");
  });
});

describe("Comprobante: detail", () => {
  const SESSION = "7c0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b";
  const monthly: InvoiceDetailDto = {
    ...invoice({ type: 1, typeLabel: "Factura A", paymentId: null, sessionIds: [SESSION], accessGroup: { id: "8d0e2a4c-1d1f-4c55-9a8e-0c2f1e3d4a5b", name: "Flota Sur" }, billingMonth: "2026-10-01", receiver: { docType: 80, docNumber: "30500010912", name: "Flota Sur SA" } }),
    sessions: [{ id: SESSION, transactionId: 4012, idTag: "FS-01", stationName: "Estación Centro", startedAt: "2026-10-14T12:00:00.000Z", stoppedAt: "2026-10-14T13:00:00.000Z", energyWh: 12_500, totalCents: 121_000, vatRateBp: 2100 }],
  };

  it("a monthly invoice comes with its group, month and the sessions it covers", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl(`/Business/Invoice/${ID}`), () => HttpResponse.json(monthly)));
    const res = await run<Loose>(() => detail.loader(args(get(`/payment/invoice/${ID}`, cookie), ctx(), { id: ID })));
    expect(res.data.invoice).toMatchObject({ billingMonth: "2026-10-01", accessGroup: { name: "Flota Sur" }, sessions: [{ id: SESSION, transactionId: 4012 }] });
  });

  it("an unknown or foreign voucher, or a malformed id, is a 404 page", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl(`/Business/Invoice/${ID}`), () => problemResponse(404, "El comprobante no existe.")));
    const gone = await run<Loose>(() => detail.loader(args(get(`/payment/invoice/${ID}`, cookie), ctx(), { id: ID })));
    expect(gone.status).toBe(404);
    const bad = await run<Loose>(() => detail.loader(args(get("/payment/invoice/nope", cookie), ctx(), { id: "nope" })));
    expect(bad.status).toBe(404);
  });
});
