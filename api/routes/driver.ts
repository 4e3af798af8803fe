// Public routes of the driver flow (ADR 0017): what a connector's QR page shows, the
// checkout, the driver's status page and stop (authorised by the secret of their link), and the
// providers' notifications. No token: every answer shows only what a driver needs, and the
// webhooks believe nothing they are told without checking it (signature, or reading it back).
import { Hono } from "hono";
import type { AppEnv, ApiServices, Ctx } from "../env";
import { readJson } from "../http";
import { ApiError, notFound } from "../problem";
import { driverCheckoutSchema, driverTokenSchema } from "#contract/schemas/driver";
import type { DriverPayments } from "../../payments";

const IDENTITY_RE = /^[A-Za-z0-9._:-]{1,48}$/;

function connectorParams(identity: string | undefined, connector: string | undefined) {
  const n = Number(connector);
  if (!identity || !IDENTITY_RE.test(identity) || !Number.isInteger(n) || n < 1 || n > 99) throw notFound("El cargador");
  return { identity, connectorNumber: n };
}

export function driverRoutes(services: ApiServices, payments: DriverPayments) {
  const r = new Hono<AppEnv>();

  r.get("/Charge/:identity/:connector", async (c) => {
    const { identity, connectorNumber } = connectorParams(c.req.param("identity"), c.req.param("connector"));
    const info = await payments.chargePoint(identity, connectorNumber);
    if (!info) throw notFound("El cargador");
    return c.json(info);
  });

  r.post("/Charge/:identity/:connector", async (c) => {
    const { identity, connectorNumber } = connectorParams(c.req.param("identity"), c.req.param("connector"));
    const input = await readJson(c, driverCheckoutSchema);
    const origin = services.publicOrigin ?? new URL(c.req.url).origin;
    const result = await payments.checkout({ identity, connectorNumber, amountCents: input.amountCents, email: input.email, provider: input.provider, requestKey: input.requestKey, buyerCuit: input.buyerCuit, buyerName: input.buyerName, origin });
    if (!result.ok) {
      const kind = result.status === 404 ? "not-found" : result.status === 409 ? "conflict" : result.status === 400 ? "validation" : "internal";
      throw new ApiError(result.status === 400 ? 422 : result.status, kind, result.message, result.field ? { errors: { [result.field === "amount" ? "amountCents" : result.field]: [result.message] } } : {});
    }
    return c.json({ paymentId: result.paymentId, token: result.token, checkoutUrl: result.checkoutUrl }, result.created ? 201 : 200);
  });

  r.get("/Payment/:id", async (c) => {
    const token = c.req.query("t") ?? "";
    const view = await payments.view(c.req.param("id"), token);
    if (!view) throw notFound("El pago");
    return c.json(view);
  });

  // The driver's voucher, for whoever holds the link's secret (as the status page): no sign-in, no one else's.
  r.get("/Payment/:id/Invoice/Pdf", async (c) => {
    const pdf = await payments.invoicePdf(c.req.param("id"), c.req.query("t") ?? "");
    if (!pdf) throw notFound("La factura autorizada");
    return c.body(new Uint8Array(pdf.bytes), 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${pdf.filename}"`,
      "Cache-Control": "private, no-store",
    });
  });

  r.post("/Payment/:id/Stop", async (c) => {
    const { token } = await readJson(c, driverTokenSchema);
    const result = await payments.stop(c.req.param("id"), token);
    if (!result.ok) throw new ApiError(409, "conflict", result.message);
    return c.json(result);
  });

  return r;
}

/** A webhook's answer: 200 { received: true }, or a problem like the rest of the API (providers read only the status). */
function webhookAnswer(c: Ctx, status: 200 | 400 | 401) {
  if (status === 200) return c.json({ received: true }, 200);
  if (status === 401) throw new ApiError(401, "unauthenticated", "Firma del aviso inválida.");
  throw new ApiError(400, "validation", "Aviso inválido.");
}

/** POST /Webhook/MercadoPago/{businessId}, POST /Webhook/Pagos360/{businessId} */
export function webhookRoutes(payments: DriverPayments) {
  const r = new Hono<AppEnv>();
  r.post("/MercadoPago/:businessId", async (c) => {
    const url = new URL(c.req.url);
    let bodyType: string | undefined;
    let bodyId: string | undefined;
    try {
      const body = (await c.req.json()) as { type?: unknown; data?: { id?: unknown } };
      bodyType = typeof body.type === "string" ? body.type : undefined;
      bodyId = typeof body.data?.id === "string" || typeof body.data?.id === "number" ? String(body.data.id) : undefined;
    } catch {
      // The query string carries what is signed; the body is optional.
    }
    const { status } = await payments.mercadoPagoWebhook(c.req.param("businessId"), {
      // The signed id is the URL's data.id (Mercado Pago's manifest); the body's only when absent.
      dataId: url.searchParams.get("data.id") ?? bodyId,
      type: url.searchParams.get("type") ?? bodyType,
      // IPN's format: ?topic=payment|merchant_order&id=… (never signed: read back like the rest).
      topic: url.searchParams.get("topic") ?? undefined,
      id: url.searchParams.get("id") ?? undefined,
      signature: c.req.header("x-signature"),
      requestId: c.req.header("x-request-id"),
    });
    return webhookAnswer(c, status);
  });
  r.post("/Pagos360/:businessId", async (c) => {
    let body: Record<string, unknown> = {};
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return webhookAnswer(c, 400);
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) return webhookAnswer(c, 400);
    const { status } = await payments.pagos360Webhook(c.req.param("businessId"), body);
    return webhookAnswer(c, status);
  });
  return r;
}
