// The payments emulator's GET /v1/payments/search as reconciliation reads it: by reference or by a
// creation range, paged, each approved payment with Mercado Pago's fee and what was received.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mercadoPagoClient, mpFeeCents } from "#infra/payments/mercadopago";
import { startPaymentsEmulator, type PaymentsEmulator } from "../../../scripts/payments-emulator";

describe("payments emulator: Mercado Pago's payment search", () => {
  let emulator: PaymentsEmulator;
  const token = "TEST-emulator-search-0000";
  beforeAll(async () => {
    emulator = await startPaymentsEmulator();
  });
  afterAll(() => emulator.stop());

  async function pay(reference: string, decision: "approve" | "reject") {
    const client = mercadoPagoClient({ baseUrl: emulator.mercadoPagoUrl, accessToken: token });
    const pref = await client.createPreference({ externalReference: reference, title: "Carga", amountCents: 150_000, backUrl: "http://127.0.0.1:1/back", notificationUrl: "http://127.0.0.1:1/hook" }, `k-${reference}-${decision}`);
    const back = await fetch(pref.init_point, { method: "POST", body: new URLSearchParams({ decision }), redirect: "manual" });
    expect(back.status).toBe(303);
  }

  it("finds the account's payments of a range and by reference, with fees", async () => {
    const start = new Date(Date.now() - 1000);
    await pay("ref-a", "approve");
    await pay("ref-a", "reject");
    await pay("ref-b", "approve");
    const client = mercadoPagoClient({ baseUrl: emulator.mercadoPagoUrl, accessToken: token });
    const range = await client.searchPayments({ begin: start, end: new Date(Date.now() + 1000) });
    expect(range.results.map((p) => [p.external_reference, p.status])).toEqual([
      ["ref-a", "approved"],
      ["ref-a", "rejected"],
      ["ref-b", "approved"],
    ]);
    // The emulator's one fee (6.29 % + IVA) on $ 1.500: $ 114,16, and $ 1.385,84 received.
    expect(mpFeeCents(range.results[0])).toBe(11416);
    expect(range.results[0].transaction_details?.net_received_amount).toBe(1385.84);
    expect(mpFeeCents(range.results[1])).toBe(0);
    expect((await client.searchPayments({ begin: new Date(Date.now() + 60_000) })).results).toEqual([]);
    expect((await client.searchPayments({ externalReference: "ref-b" })).results).toHaveLength(1);
    // Another account's token sees none of them.
    expect((await mercadoPagoClient({ baseUrl: emulator.mercadoPagoUrl, accessToken: "TEST-other" }).searchPayments({ begin: start })).results).toEqual([]);
  });
});
