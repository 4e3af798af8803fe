// The payments emulator's Pagos360 notifications: like Pagos360, it POSTs
// { entity_name: "PaymentRequest", type, entity_id, created_at } — unsigned — to the webhook URL
// set in the account (its panel, by API key), before sending the driver back; without a URL it
// sends nothing. Deliveries are listed on /_emulator/state.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pagos360Client } from "#infra/payments/pagos360";
import { startPaymentsEmulator, type PaymentsEmulator } from "../../../scripts/payments-emulator";

describe("payments emulator: Pagos360 notifications", () => {
  let emulator: PaymentsEmulator;
  let receiver: http.Server;
  let hook = "";
  const received: { path: string; body: Record<string, unknown>; signature: string | undefined }[] = [];

  beforeAll(async () => {
    emulator = await startPaymentsEmulator();
    receiver = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        received.push({ path: req.url ?? "", body: JSON.parse(raw) as Record<string, unknown>, signature: req.headers["x-signature"] as string | undefined });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/Webhook/Pagos360/b-1`;
  });
  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
    await emulator.stop();
  });

  const state = async () =>
    (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as { deliveries: { provider: string; url: string; status: number | "error"; entityId?: number; type?: string }[]; apiCalls: Record<string, number> };

  async function approve(apiKey: string, decision: "approve" | "reject" = "approve") {
    const request = await pagos360Client({ baseUrl: emulator.pagos360Url, apiKey }).createPaymentRequest({
      externalReference: crypto.randomUUID(),
      description: "Carga",
      amountCents: 250_000,
      payerName: "Conductor",
      backUrl: "http://127.0.0.1:1/cargar/pago/x?t=y",
      dueDate: "31-12-2030",
    });
    const back = await fetch(request.checkout_url, { method: "POST", body: new URLSearchParams({ decision }), redirect: "manual" });
    expect(back.status).toBe(303);
    return request;
  }

  it("sends nothing for an account without a webhook URL", async () => {
    await approve("p360-sin-webhook-0000000000");
    expect(received).toEqual([]);
    expect((await state()).deliveries).toEqual([]);
  });

  it("notifies the account's webhook URL (set by script with the key) before the redirect, as Pagos360 documents it", async () => {
    const put = await fetch(`${emulator.pagos360Url}/panel/webhook`, { method: "PUT", headers: { authorization: "Bearer p360-con-webhook-00000000", "content-type": "application/json" }, body: JSON.stringify({ url: hook }) });
    expect(await put.json()).toEqual({ url: hook });
    const request = await approve("p360-con-webhook-00000000");
    expect(received).toEqual([{ path: "/api/Webhook/Pagos360/b-1", body: { entity_name: "PaymentRequest", type: "paid", entity_id: request.id, created_at: expect.any(String) }, signature: undefined }]);
    const rejected = await approve("p360-con-webhook-00000000", "reject");
    expect(received.at(-1)?.body).toMatchObject({ type: "rejected", entity_id: rejected.id });
    const s = await state();
    expect(s.deliveries.map((d) => [d.provider, d.url, d.status, d.entityId, d.type])).toEqual([
      ["PAGOS360", hook, 200, request.id, "paid"],
      ["PAGOS360", hook, 200, rejected.id, "rejected"],
    ]);
    expect(s.apiCalls["POST /pagos360/payment-request"]).toBe(3);
  });

  it("its panel (a plain form) sets or clears an account's URL and refuses what is not http(s)", async () => {
    const save = (fields: Record<string, string>) => fetch(`${emulator.pagos360Url}/panel`, { method: "POST", body: new URLSearchParams(fields) });
    expect((await save({ apiKey: "p360-panel-000000000000", url: "javascript:alert(1)" })).status).toBe(400);
    expect((await save({ apiKey: "", url: hook })).status).toBe(400);
    const ok = await save({ apiKey: "p360-panel-000000000000", url: hook });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Guardado.");
    expect(emulator.setPagos360Webhook("p360-panel-000000000000", "")).toBe(true);
    const before = received.length;
    await approve("p360-panel-000000000000");
    expect(received.length).toBe(before);
  });
});
