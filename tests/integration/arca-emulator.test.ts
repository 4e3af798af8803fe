// The ARCA emulator as local mode runs it (beside the payments emulator, over real HTTP): the
// client logs in and gets a CAE with the demo certificate, and the switch on /_emulator/arca
// takes ARCA down and back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArcaUnavailableError, VOUCHER_TYPES } from "../../domain/arca-port";
import { createArcaClient, memoryTicketStore } from "../../infra/arca/client";
import { makeArcaCertificate } from "../../scripts/arca-test-certificates";
import { startPaymentsEmulator, type PaymentsEmulator } from "../../scripts/payments-emulator";

const CUIT = "30712345671";
let emulator: PaymentsEmulator;
const cert = makeArcaCertificate(CUIT);

beforeAll(async () => {
  emulator = await startPaymentsEmulator({ port: 0 });
  emulator.arca.registerTaxpayer(CUIT, cert.certPem, [3]);
});
afterAll(() => emulator.stop());

describe("ARCA emulator over HTTP", () => {
  it("authorises a Factura B with a 14-digit CAE, then is down and back with its switch", async () => {
    const client = createArcaClient({ cuit: CUIT, certPem: cert.certPem, keyPem: cert.keyPem, wsaaUrl: emulator.arcaWsaaUrl, wsfeUrl: emulator.arcaWsfeUrl, tickets: memoryTicketStore() });
    expect(await client.pointsOfSale()).toEqual([3]);
    const next = (await client.lastAuthorized(3, VOUCHER_TYPES.FACTURA_B)) + 1;
    const result = await client.requestCae({
      pointOfSale: 3, type: VOUCHER_TYPES.FACTURA_B, number: next, concept: 2, issueDate: "2026-11-28", serviceFrom: "2026-11-28", serviceTo: "2026-11-28", paymentDueDate: "2026-11-28",
      receiverDocType: 99, receiverDocNumber: "0", receiverVatConditionId: 5, totalCents: 1_210, netCents: 1_000, exemptCents: 0, vatCents: 210, vat: [{ id: 5, baseCents: 1_000, amountCents: 210 }],
    });
    expect(result.kind === "authorized" && result.cae).toMatch(/^\d{14}$/);
    const down = await fetch(`${emulator.url}/_emulator/arca/mode`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ mode: "down" }) });
    expect(down.status).toBe(200);
    await expect(client.health()).rejects.toBeInstanceOf(ArcaUnavailableError);
    await fetch(`${emulator.url}/_emulator/arca/mode`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "mode=up", redirect: "manual" });
    expect(await client.health()).toEqual({ appServer: true, dbServer: true, authServer: true });
    const panel = await (await fetch(`${emulator.url}/_emulator/arca`)).text();
    expect(panel).toContain(result.kind === "authorized" ? result.cae : "-");
  });
});
