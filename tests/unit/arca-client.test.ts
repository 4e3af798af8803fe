// The ARCA client (infra/arca/client.ts) against the emulator's rules over msw: the access ticket
// is cached and renewed, a signature with another key is refused, ARCA down or a SOAP fault is
// "unavailable", numbers go strictly last + 1, CAEs and rejections are read with Spanish reasons.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ArcaUnavailableError, VOUCHER_TYPES, type CaeRequest } from "../../domain/arca-port";
import { ArcaLoginError, createArcaClient, memoryTicketStore } from "../../infra/arca/client";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { arca, ARCA_TEST_URLS } from "../mocks/arca";

const CUIT = "30712345671";
const cert = makeArcaCertificate(CUIT);
const other = makeArcaCertificate(CUIT);
const server = setupServer(...arca.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  arca.reset();
});
afterAll(() => server.close());

function client(over: Partial<Parameters<typeof createArcaClient>[0]> = {}) {
  return createArcaClient({ cuit: CUIT, certPem: cert.certPem, keyPem: cert.keyPem, wsaaUrl: ARCA_TEST_URLS.wsaa, wsfeUrl: ARCA_TEST_URLS.wsfe, tickets: memoryTicketStore(), ...over });
}

const facturaB = (number: number, over: Partial<CaeRequest> = {}): CaeRequest => ({
  pointOfSale: 3,
  type: VOUCHER_TYPES.FACTURA_B,
  number,
  concept: 2,
  issueDate: "2026-11-28",
  serviceFrom: "2026-11-28",
  serviceTo: "2026-11-28",
  paymentDueDate: "2026-11-28",
  receiverDocType: 99,
  receiverDocNumber: "0",
  receiverVatConditionId: 5,
  totalCents: 12_100,
  netCents: 10_000,
  exemptCents: 0,
  vatCents: 2_100,
  vat: [{ id: 5, baseCents: 10_000, amountCents: 2_100 }],
  ...over,
});

describe("ARCA client", () => {
  it("logs in once and reuses the access ticket; near its expiry WSAA refuses a second (coe.alreadyAuthenticated), so it is used to its end, then renewed", async () => {
    let now = new Date();
    arca.reset({ now: () => now });
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client({ now: () => now });
    const first = await c.login();
    expect(await c.pointsOfSale()).toEqual([3]);
    expect((await c.login()).token).toBe(first.token);
    now = new Date(first.expiresAt.getTime() - 5 * 60_000);
    expect((await c.login()).token).toBe(first.token);
    expect(await c.pointsOfSale()).toEqual([3]);
    // The refusal is remembered: no other login is asked while the ticket lasts.
    expect((await c.login()).token).toBe(first.token);
    expect(arca.emulator.state().calls.LoginCms).toBe(2);
    now = new Date(first.expiresAt.getTime() + 1_000);
    const renewed = await c.login();
    expect(renewed.token).not.toBe(first.token);
    expect(arca.emulator.state().calls.LoginCms).toBe(3);
  });

  it("shares one login among concurrent calls", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client();
    const tickets = await Promise.all([c.login(), c.login(), c.login()]);
    expect(new Set(tickets.map((t) => t.token)).size).toBe(1);
  });

  it("is refused a login signed with a key other than the registered certificate's (cms.cert.untrusted), in Spanish", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client({ certPem: other.certPem, keyPem: other.keyPem });
    const error = await c.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcaLoginError);
    expect(error).toBeInstanceOf(ArcaUnavailableError);
    expect((error as ArcaLoginError).code).toBe("cms.cert.untrusted");
    expect((error as Error).message).toMatch(/certificado/);
  });

  it("is refused a login with an expired certificate", async () => {
    const expired = makeArcaCertificate(CUIT, { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    arca.emulator.registerTaxpayer(CUIT, expired.certPem, [3]);
    const error = await client({ certPem: expired.certPem, keyPem: expired.keyPem }).login().catch((e: unknown) => e);
    expect((error as ArcaLoginError).code).toBe("cms.cert.expired");
    expect((error as Error).message).toMatch(/vencido/);
  });

  it("says ARCA is unavailable when it answers 503, a SOAP fault, or nothing in time", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    arca.emulator.setMode("down");
    await expect(client().health()).rejects.toBeInstanceOf(ArcaUnavailableError);
    arca.emulator.setMode("slow", 500);
    await expect(client({ timeoutMs: 100 }).health()).rejects.toThrow(/no respondió a tiempo/);
    arca.emulator.setMode("up");
    server.use(http.post(ARCA_TEST_URLS.wsfe, () => new HttpResponse(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Error interno</faultstring></soap:Fault></soap:Body></soap:Envelope>`, { status: 500 })));
    await expect(client().health()).rejects.toBeInstanceOf(ArcaUnavailableError);
    server.use(http.post(ARCA_TEST_URLS.wsfe, () => HttpResponse.error()));
    await expect(client().health()).rejects.toThrow(/No pudimos conectarnos/);
  });

  it("FEDummy reports the three servers", async () => {
    expect(await client().health()).toEqual({ appServer: true, dbServer: true, authServer: true });
  });

  it("authorises numbers strictly last + 1 with a 14-digit CAE, and reads ARCA's 10016 for a skipped one in Spanish", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client();
    expect(await c.lastAuthorized(3, VOUCHER_TYPES.FACTURA_B)).toBe(0);
    const ok = await c.requestCae(facturaB(1));
    expect(ok.kind).toBe("authorized");
    if (ok.kind === "authorized") {
      expect(ok.cae).toMatch(/^\d{14}$/);
      expect(ok.caeDueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(await c.lastAuthorized(3, VOUCHER_TYPES.FACTURA_B)).toBe(1);
    const skipped = await c.requestCae(facturaB(3));
    expect(skipped.kind).toBe("rejected");
    expect(skipped.kind === "rejected" && skipped.observations.map((o) => o.code)).toEqual([10016]);
    const again = await c.requestCae(facturaB(1));
    expect(again.kind === "rejected" && again.observations[0].message).toMatch(/siguiente que ARCA espera/);
    expect(await c.lastAuthorized(3, VOUCHER_TYPES.FACTURA_B)).toBe(1);
  });

  it("reads a rejection for totals that do not add up (10048) and a Factura A without a valid CUIT (10015)", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client();
    const totals = await c.requestCae(facturaB(1, { totalCents: 12_101 }));
    expect(totals.kind === "rejected" && totals.observations.map((o) => o.code)).toEqual([10048]);
    const a = await c.requestCae(facturaB(1, { type: VOUCHER_TYPES.FACTURA_A, receiverDocType: 80, receiverDocNumber: "30712345670", receiverVatConditionId: 1 }));
    expect(a.kind === "rejected" && a.observations.map((o) => o.code)).toContain(10015);
    expect(a.kind === "rejected" && a.observations[0].message).toMatch(/CUIT válido/);
  });

  it("reads back an authorised voucher with FECompConsultar (CAE, due date, amounts, receiver); none for a number ARCA has not given", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = client();
    const result = await c.requestCae(facturaB(1));
    if (result.kind !== "authorized") throw new Error("not authorised");
    expect(await c.voucher(3, VOUCHER_TYPES.FACTURA_B, 1)).toEqual({
      pointOfSale: 3, type: 6, number: 1, cae: result.cae, caeDueDate: result.caeDueDate, issueDate: "2026-11-28",
      receiverDocType: 99, receiverDocNumber: "0", totalCents: 12_100, netCents: 10_000, exemptCents: 0, vatCents: 2_100,
    });
    expect(await c.voucher(3, VOUCHER_TYPES.FACTURA_B, 2)).toBeNull();
    expect(await c.voucher(3, VOUCHER_TYPES.FACTURA_A, 1)).toBeNull();
  });

  it("sends a Factura C with its whole amount as net and no VAT", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const c = await client().requestCae(facturaB(1, { type: VOUCHER_TYPES.FACTURA_C, netCents: 0, vatCents: 0, vat: [], totalCents: 5_000 }));
    expect(c.kind).toBe("authorized");
  });

  it("drops a ticket ARCA no longer accepts (error 600) and logs in again on the next call", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const tickets = memoryTicketStore();
    const c = client({ tickets });
    await c.login();
    arca.reset();
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    await expect(c.pointsOfSale()).rejects.toBeInstanceOf(ArcaUnavailableError);
    expect(await c.pointsOfSale()).toEqual([3]);
  });
});

describe("ARCA emulator's WSAA", () => {
  it("refuses a CMS that carries the registered certificate but is signed with another key (cms.sign.invalid)", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3]);
    const forged = client({ certPem: cert.certPem, keyPem: other.keyPem });
    const error = await forged.login().catch((e: unknown) => e);
    expect((error as ArcaLoginError).code).toBe("cms.sign.invalid");
    expect((error as Error).message).toMatch(/clave privada no corresponde/);
  });

  it("keeps numbers per CUIT, point of sale and type", async () => {
    arca.emulator.registerTaxpayer(CUIT, cert.certPem, [3, 4]);
    const c = client();
    expect((await c.requestCae(facturaB(1))).kind).toBe("authorized");
    expect((await c.requestCae(facturaB(1, { pointOfSale: 4 }))).kind).toBe("authorized");
    expect(await c.lastAuthorized(3, VOUCHER_TYPES.FACTURA_C)).toBe(0);
    const closed = await c.requestCae(facturaB(1, { pointOfSale: 5 }));
    expect(closed.kind === "rejected" && closed.observations.map((o) => o.code)).toContain(10040);
  });
});
