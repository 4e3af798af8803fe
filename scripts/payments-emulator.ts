// Payment providers' emulator — dev-only, never part of the production image: local
// mode (`npm start`) and the browser tests start it so the whole driver flow runs offline. It
// implements exactly the subset of Mercado Pago and Pagos360 that infra/payments/* calls, plus
// the pages a driver sees at the provider (approve or reject), and it delivers both providers'
// notifications: Mercado Pago's webhooks signed with x-signature as Mercado Pago documents it, to
// the preference's notification_url; Pagos360's `{ entity_name: "PaymentRequest", type,
// entity_id, created_at }` (unsigned: Enchufá reads the request back) to the webhook URL of the
// account — Pagos360 configures it per account in its panel, not per payment request, so the
// emulator has that panel too.
//
//   Mercado Pago  {base}/mercadopago   POST /checkout/preferences · GET /v1/payments/{id}
//                                     GET /v1/payments/search · POST /v1/payments/{id}/refunds
//                                     GET|POST /checkout/{preferenceId} (the checkout page)
//   Pagos360      {base}/pagos360      POST /payment-request · GET /payment-request/{id}
//                                     GET|POST /checkout/{id} (the checkout page)
//                                     GET|POST /panel (the account's webhook URL, by API key;
//                                     PUT /panel/webhook { url } with the key as Bearer, for scripts)
//   Mercado Pago  (also) GET /v1/payments/{id}/refunds[/{refund_id}]; a payment carries its
//                 refunds[], fee_details and transaction_details.net_received_amount (fee: see
//                 payments-emulator-model.ts); a preference honours expires/expiration_date_to
//   After payment {base}/_emulator/…, for scripts (JSON) and the panel (forms), each changing the
//                 provider's record and then notifying as the provider does (README):
//                 POST mercadopago/payments/{id}/status { status, amountCents?, delivery? }
//                 (delivery: "webhook" by default, "ipn", or "none": changed without a notification)
//                 POST mercadopago/payments/{id}/refunds/{refundId}/status { status }
//                 POST mercadopago/preferences/{id}/pay { late?, delivery? } (late: approved
//                 after the preference's expiry, date_approved a minute past it)
//                 POST mercadopago/next-refund { status } · POST pagos360/payment-request/{id}/status { state }
//   Known         POST {base}/_emulator/known-payments { payments: [...] }: payments the providers
//                 already had (the demo seed's), learnt without any notification
//   Panel         {base}/_emulator (HTML, no JavaScript needed: one button per action)
//   Inspection    {base}/_emulator/state (JSON: preferences, payments, refunds, Pagos360
//                 requests, webhook deliveries of both providers, API calls per path)
//
// Every account's webhook secret is EMULATOR_WEBHOOK_SECRET (the demo operator's account is
// seeded with it; type it in Pagos → Mercado Pago to connect another one).
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import {
  addMercadoPagoRefund,
  changeMercadoPagoStatus,
  changePagos360State,
  isKnownPayments,
  isPagos360State,
  knownMercadoPagoPayment,
  mercadoPagoIpnRequest,
  mercadoPagoPaymentView,
  mercadoPagoRefundView,
  mercadoPagoWebhookRequest,
  MP_AFTER_STATUSES,
  MP_REFUND_STATUSES,
  pagos360WebhookRequest,
  settleMercadoPagoRefund,
  type KnownPayment,
  type MpAfterStatus,
  type MpPaymentRecord,
  type MpRefundRecord,
  type MpRefundStatus,
  type ProviderRequest,
} from "./payments-emulator-model";
import { emulatorPanel } from "./payments-emulator-panel";
import { createArcaEmulator, mountArcaControls } from "./arca-emulator";

export const EMULATOR_WEBHOOK_SECRET = "emulador-enchufa-secreto-webhook";

interface Preference {
  id: string;
  owner: string;
  external_reference: string;
  title: string;
  unit_price: number;
  back_url: string;
  notification_url?: string;
  init_point: string;
  /** Mercado Pago's `expires` + `expiration_date_to`: paying after it is refused (unless late). */
  expiration_date_to?: string;
}
interface P360Request {
  id: number;
  owner: string;
  state: string;
  external_reference: string;
  description: string;
  first_total: number;
  back_url_success?: string;
  back_url_rejected?: string;
  checkout_url: string;
}
interface Delivery {
  provider: "MERCADOPAGO" | "PAGOS360";
  /** Mercado Pago: a signed webhook or an unsigned IPN; Pagos360's are always "webhook". */
  format: "webhook" | "ipn";
  url: string;
  status: number | "error";
  at: string;
  /** Mercado Pago: the payment notified. */
  paymentId?: number;
  /** Pagos360: the payment request notified and its new state. */
  entityId?: number;
  type?: string;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pesos = (n: number) => new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" }).format(n);

function page(title: string, body: string) {
  return `<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:420px;margin:0 auto;padding:16px;color:#111}.box{border:1px solid #ccc;border-radius:8px;padding:16px}button{font-size:1rem;padding:12px;width:100%;margin-top:8px;border-radius:6px;border:0;cursor:pointer}.ok{background:#009ee3;color:#fff}.no{background:#eee}.note{color:#555;font-size:.9rem}</style></head>
<body><main>${body}</main></body></html>`;
}

export async function startPaymentsEmulator(opts: { port?: number; host?: string; log?: (line: string) => void } = {}) {
  const host = opts.host ?? "127.0.0.1";
  const app = express();
  app.disable("x-powered-by");
  // ARCA's web services, beside the payment providers (scripts/arca-emulator.ts).
  const arca = createArcaEmulator();
  app.use("/arca", arca.router);
  mountArcaControls(app, arca);
  app.use(express.json({ limit: "64kb" }));
  app.use(express.urlencoded({ extended: false, limit: "8kb" }));
  app.use((req, _res, next) => {
    if (req.get("authorization")) {
      const key = `${req.method} ${req.path.replace(/\/\d+(?=\/|$)/g, "/{id}").replace(/\/\d+-[0-9a-f-]{36}(?=\/|$)/g, "/{id}")}`;
      apiCalls[key] = (apiCalls[key] ?? 0) + 1;
    }
    next();
  });
  let base = "";

  const preferences = new Map<string, Preference>();
  const mpPayments = new Map<number, MpPaymentRecord>();
  const refunds: MpRefundRecord[] = [];
  /** The status the next refund made through the API gets (then back to approved). */
  let nextRefundStatus: MpRefundStatus = "approved";
  const p360 = new Map<number, P360Request>();
  const deliveries: Delivery[] = [];
  /** Pagos360: each account's webhook URL (its panel's setting), by API key. */
  const p360Webhooks = new Map<string, string>();
  /** How many API calls each path got (the checkout pages and the panel are not API calls). */
  const apiCalls: Record<string, number> = {};
  const idempotent = new Map<string, unknown>();
  let nextId = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);

  const bearer = (req: Request) => /^Bearer (.+)$/.exec(req.get("authorization") ?? "")?.[1];
  const auth = (req: Request, res: Response): string | undefined => {
    const token = bearer(req);
    if (!token) res.status(401).json({ message: "unauthorized", status: 401 });
    return token;
  };
  /** Mercado Pago answers a repeated X-Idempotency-Key with the first answer. */
  const once = (req: Request, owner: string, make: () => unknown) => {
    const key = req.get("x-idempotency-key");
    if (!key) return make();
    const k = `${owner}:${req.path}:${key}`;
    if (!idempotent.has(k)) idempotent.set(k, make());
    return idempotent.get(k);
  };

  // --- Mercado Pago -------------------------------------------------------------------------

  app.post("/mercadopago/checkout/preferences", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const b = req.body as {
      items?: { title?: string; unit_price?: number }[];
      external_reference?: string;
      back_urls?: { success?: string };
      notification_url?: string;
      expires?: boolean;
      expiration_date_to?: string;
    };
    const item = b.items?.[0];
    const expiry = b.expires === true ? b.expiration_date_to : undefined;
    if (!item || typeof item.unit_price !== "number" || !(item.unit_price > 0) || !b.external_reference || (expiry !== undefined && !(typeof expiry === "string" && Number.isFinite(Date.parse(expiry))))) {
      return void res.status(400).json({ message: "invalid preference", status: 400 });
    }
    const pref = once(req, owner, () => {
      const id = `${nextId++}-${randomUUID()}`;
      const p: Preference = {
        id,
        owner,
        external_reference: b.external_reference!,
        title: item.title ?? "",
        unit_price: item.unit_price!,
        back_url: b.back_urls?.success ?? "",
        notification_url: b.notification_url,
        init_point: `${base}/mercadopago/checkout/${id}`,
        ...(expiry ? { expiration_date_to: new Date(expiry).toISOString() } : {}),
      };
      preferences.set(id, p);
      return p;
    }) as Preference;
    res.status(201).json({
      id: pref.id,
      init_point: pref.init_point,
      sandbox_init_point: pref.init_point,
      external_reference: pref.external_reference,
      ...(pref.expiration_date_to ? { expires: true, expiration_date_to: pref.expiration_date_to } : { expires: false }),
    });
  });

  app.get("/mercadopago/checkout/:id", (req, res) => {
    const pref = preferences.get(req.params.id);
    if (!pref) return void res.status(404).type("html").send(page("No existe", "<p>Este pago no existe.</p>"));
    if (expired(pref)) return void res.status(410).type("html").send(page("Venció", "<p>Este link de pago venció.</p>"));
    res.type("html").send(
      page(
        "Mercado Pago (emulador)",
        `<h1>Mercado Pago <small>(emulador)</small></h1><div class="box"><p>${esc(pref.title)}</p><p><strong>${esc(pesos(pref.unit_price))}</strong></p>
<form method="post"><button class="ok" name="decision" value="approve">Aprobar pago</button><button class="no" name="decision" value="reject">Rechazar pago</button></form></div>
<p class="note">Emulador local de Enchufá: no se mueve dinero.</p>`,
      ),
    );
  });

  app.post("/mercadopago/checkout/:id", async (req, res) => {
    const pref = preferences.get(req.params.id);
    if (!pref) return void res.status(404).send("not found");
    if (expired(pref)) return void res.status(410).type("html").send(page("Venció", "<p>Este link de pago venció.</p>"));
    const approve = (req.body as { decision?: string }).decision === "approve";
    const payment = newPayment(pref, approve);
    if (pref.notification_url) await deliverMercadoPago(pref.notification_url, payment.id, "webhook", "payment.created");
    const back = new URL(pref.back_url);
    back.searchParams.set("payment_id", String(payment.id));
    back.searchParams.set("status", payment.status);
    back.searchParams.set("external_reference", payment.external_reference);
    res.redirect(303, back.toString());
  });

  const expired = (pref: Preference) => pref.expiration_date_to !== undefined && Date.parse(pref.expiration_date_to) < Date.now();

  /** A payment on a preference, approved or rejected by the driver (or by the panel: `Pagar otra vez`). */
  function newPayment(pref: Preference, approve: boolean, approvedAt?: string): MpPaymentRecord {
    const now = new Date().toISOString();
    const payment: MpPaymentRecord = {
      id: nextId++,
      owner: pref.owner,
      status: approve ? "approved" : "rejected",
      status_detail: approve ? "accredited" : "cc_rejected_other_reason",
      external_reference: pref.external_reference,
      transaction_amount: pref.unit_price,
      transaction_amount_refunded: 0,
      currency_id: "ARS",
      preference_id: pref.id,
      date_created: now,
      date_approved: approve ? (approvedAt ?? now) : null,
      date_last_updated: now,
    };
    mpPayments.set(payment.id, payment);
    return payment;
  }

  /** One HTTP call a provider makes to Enchufá; the answer's status (or "error") is recorded. */
  async function send(r: ProviderRequest): Promise<Delivery["status"]> {
    try {
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel().catch(() => {});
      return res.status;
    } catch {
      return "error";
    }
  }

  /**
   * A notification as Mercado Pago sends it: the webhook (data.id and type in the URL, x-signature
   * over the manifest), or the older IPN (`?topic=payment&id=…`, unsigned) when asked for.
   */
  async function deliverMercadoPago(notificationUrl: string, paymentId: number, format: Delivery["format"] = "webhook", action = "payment.updated"): Promise<Delivery> {
    const request = format === "ipn" ? mercadoPagoIpnRequest(notificationUrl, paymentId) : mercadoPagoWebhookRequest(notificationUrl, paymentId, EMULATOR_WEBHOOK_SECRET, action);
    const status = await send(request);
    const delivery: Delivery = { provider: "MERCADOPAGO", format, url: request.url, status, at: new Date().toISOString(), paymentId };
    deliveries.push(delivery);
    opts.log?.(`${format === "ipn" ? "IPN" : "webhook"} Mercado Pago → ${new URL(request.url).pathname}: ${status}`);
    return delivery;
  }

  const mine = (req: Request, res: Response) => {
    const owner = auth(req, res);
    if (!owner) return undefined;
    const p = mpPayments.get(Number(req.params.id));
    if (!p || p.owner !== owner) {
      res.status(404).json({ message: "Payment not found", status: 404 });
      return undefined;
    }
    return p;
  };
  const publicPayment = (p: MpPaymentRecord) => mercadoPagoPaymentView(p, refunds);

  // The search as Mercado Pago answers it: by external_reference and/or a creation range
  // (range=date_created, begin_date/end_date), sorted by date_created (criteria asc|desc, newest
  // first by default), paged with offset/limit (limit ≤ 1000, default 30). Each payment reads as
  // GET /v1/payments/:id does, with its fee and what was received.
  app.get("/mercadopago/v1/payments/search", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const q = (name: string) => (typeof req.query[name] === "string" ? (req.query[name] as string) : undefined);
    const ref = q("external_reference");
    const begin = q("begin_date") ? Date.parse(q("begin_date")!) : -Infinity;
    const end = q("end_date") ? Date.parse(q("end_date")!) : Infinity;
    if (Number.isNaN(begin) || Number.isNaN(end)) return void res.status(400).json({ message: "invalid date", status: 400 });
    const at = (p: MpPaymentRecord) => Date.parse(p.date_created ?? "1970-01-01T00:00:00Z");
    const matching = [...mpPayments.values()]
      .filter((p) => p.owner === owner && (ref === undefined || p.external_reference === ref) && at(p) >= begin && at(p) <= end)
      .sort((a, b) => (q("criteria") === "asc" ? at(a) - at(b) || a.id - b.id : at(b) - at(a) || b.id - a.id));
    const offset = Math.max(0, Number(q("offset") ?? 0) || 0);
    const limit = Math.min(1000, Math.max(1, Number(q("limit") ?? 30) || 30));
    res.json({ paging: { total: matching.length, limit, offset }, results: matching.slice(offset, offset + limit).map(publicPayment) });
  });
  app.get("/mercadopago/v1/payments/:id", (req, res) => {
    const p = mine(req, res);
    if (p) res.json(publicPayment(p));
  });
  app.post("/mercadopago/v1/payments/:id/refunds", (req, res) => {
    const p = mine(req, res);
    if (!p) return;
    const result = once(req, p.owner, () => {
      const asked = (req.body as { amount?: unknown }).amount;
      if (asked !== undefined && typeof asked !== "number") return { error: true };
      // The status the panel chose for the next refund (approved unless told), used once.
      const status = nextRefundStatus;
      const refund = addMercadoPagoRefund(p, refunds, {
        id: nextId,
        amountCents: typeof asked === "number" ? Math.round(asked * 100) : undefined,
        status,
        origin: "api",
        key: req.get("x-idempotency-key"),
      });
      if (!refund) return { error: true };
      nextId++;
      nextRefundStatus = "approved";
      return mercadoPagoRefundView(refund);
    }) as { error?: boolean };
    if (result.error) return void res.status(400).json({ message: "invalid refund", status: 400 });
    res.status(201).json(result);
  });
  app.get("/mercadopago/v1/payments/:id/refunds", (req, res) => {
    const p = mine(req, res);
    if (p) res.json(refunds.filter((r) => r.payment_id === p.id).map(mercadoPagoRefundView));
  });
  app.get("/mercadopago/v1/payments/:id/refunds/:refundId", (req, res) => {
    const p = mine(req, res);
    if (!p) return;
    const refund = refunds.find((r) => r.payment_id === p.id && String(r.id) === req.params.refundId);
    if (!refund) return void res.status(404).json({ message: "Refund not found", status: 404 });
    res.json(mercadoPagoRefundView(refund));
  });

  // --- Pagos360 -----------------------------------------------------------------------------

  app.post("/pagos360/payment-request", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const b = (req.body as { payment_request?: Record<string, unknown> }).payment_request ?? {};
    const total = b.first_total;
    if (typeof total !== "number" || !(total > 0) || typeof b.external_reference !== "string" || typeof b.first_due_date !== "string") {
      return void res.status(422).json({ message: "invalid payment request" });
    }
    const id = nextId++;
    const r: P360Request = {
      id,
      owner,
      state: "pending",
      external_reference: b.external_reference,
      description: String(b.description ?? ""),
      first_total: total,
      back_url_success: typeof b.back_url_success === "string" ? b.back_url_success : undefined,
      back_url_rejected: typeof b.back_url_rejected === "string" ? b.back_url_rejected : undefined,
      checkout_url: `${base}/pagos360/checkout/${id}`,
    };
    p360.set(id, r);
    const { owner: _o, ...out } = r;
    res.status(201).json(out);
  });
  app.get("/pagos360/payment-request/:id", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const r = p360.get(Number(req.params.id));
    if (!r || r.owner !== owner) return void res.status(404).json({ message: "not found" });
    const { owner: _o, ...out } = r;
    res.json(out);
  });
  app.get("/pagos360/checkout/:id", (req, res) => {
    const r = p360.get(Number(req.params.id));
    if (!r) return void res.status(404).type("html").send(page("No existe", "<p>Esta solicitud no existe.</p>"));
    res.type("html").send(
      page(
        "Pagos360 (emulador)",
        `<h1>Pagos360 <small>(emulador)</small></h1><div class="box"><p>${esc(r.description)}</p><p><strong>${esc(pesos(r.first_total))}</strong></p>
<form method="post"><button class="ok" name="decision" value="approve">Aprobar pago</button><button class="no" name="decision" value="reject">Rechazar pago</button></form></div>`,
      ),
    );
  });
  app.post("/pagos360/checkout/:id", async (req, res) => {
    const r = p360.get(Number(req.params.id));
    if (!r) return void res.status(404).send("not found");
    const approve = (req.body as { decision?: string }).decision === "approve";
    r.state = approve ? "paid" : "rejected";
    // Like Mercado Pago's, the notification is delivered before the driver is sent back.
    await deliverPagos360(r);
    res.redirect(303, (approve ? r.back_url_success : r.back_url_rejected) ?? base);
  });

  /**
   * A notification as Pagos360 documents it: a POST of { entity_name, type, entity_id,
   * created_at } to the webhook URL configured in the account, unsigned. Without a URL in the
   * account, nothing is sent (Enchufá polls).
   */
  async function deliverPagos360(r: P360Request): Promise<Delivery | undefined> {
    const url = p360Webhooks.get(r.owner);
    if (!url) return undefined;
    const status = await send(pagos360WebhookRequest(url, r));
    const delivery: Delivery = { provider: "PAGOS360", format: "webhook", url, status, at: new Date().toISOString(), entityId: r.id, type: r.state };
    deliveries.push(delivery);
    opts.log?.(`webhook Pagos360 → ${new URL(url).pathname}: ${status}`);
    return delivery;
  }

  /** The account's webhook URL: http(s) only, as a person would type it in the panel. */
  function setPagos360Webhook(apiKey: string, url: string): boolean {
    const key = apiKey.trim();
    if (!key) return false;
    if (url.trim() === "") {
      p360Webhooks.delete(key);
      return true;
    }
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      return false;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
    p360Webhooks.set(key, parsed.toString());
    return true;
  }

  // The panel where a Pagos360 account sets its webhook URL (Configuración → Webhooks).
  const panel = (message = "") =>
    page(
      "Pagos360 (emulador): webhooks",
      `<h1>Pagos360 <small>(emulador)</small></h1><div class="box"><h2>Webhooks de la cuenta</h2>
<p class="note">Pagos360 envía sus notificaciones a la URL configurada en la cuenta. En Enchufá: <code>{PUBLIC_URL}/api/Webhook/Pagos360/{id de la empresa}</code>.</p>
${message ? `<p role="status">${esc(message)}</p>` : ""}
<form method="post"><p><label>API key de la cuenta<br><input name="apiKey" required autocomplete="off" style="width:100%"></label></p>
<p><label>URL del webhook (vacía: no enviar)<br><input name="url" type="url" style="width:100%"></label></p>
<button class="ok">Guardar</button></form></div>`,
    );
  app.get("/pagos360/panel", (_req, res) => void res.type("html").send(panel()));
  app.post("/pagos360/panel", (req, res) => {
    const b = req.body as { apiKey?: string; url?: string };
    const ok = setPagos360Webhook(String(b.apiKey ?? ""), String(b.url ?? ""));
    res.status(ok ? 200 : 400).type("html").send(panel(ok ? "Guardado." : "Revisá la API key y la URL."));
  });
  app.put("/pagos360/panel/webhook", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const ok = setPagos360Webhook(owner, String((req.body as { url?: unknown }).url ?? ""));
    if (!ok) return void res.status(422).json({ message: "invalid url" });
    res.json({ url: p360Webhooks.get(owner) ?? null });
  });

  // --- After the payment: what happens in the providers later, by script or from the panel -----

  /** A form from the panel (no JavaScript) goes back to the panel; a script gets JSON. */
  const fromPanel = (req: Request) => Boolean(req.is("urlencoded"));
  function answer(req: Request, res: Response, status: number, body: Record<string, unknown>) {
    if (!fromPanel(req)) return void res.status(status).json(body);
    const message = typeof body.message === "string" ? body.message : status < 300 ? "Hecho." : "No se pudo.";
    res.redirect(303, `/_emulator?msg=${encodeURIComponent(message)}`);
  }
  /**
   * `delivery: "ipn"` (JSON or form field) sends Mercado Pago's unsigned IPN instead of the
   * webhook; `"none"` changes the record without notifying anyone (a change only reconciliation finds).
   */
  const deliveryFormat = (req: Request): Delivery["format"] | "none" => {
    const d = (req.body as { delivery?: unknown }).delivery;
    return d === "ipn" ? "ipn" : d === "none" ? "none" : "webhook";
  };
  /** A positive integer from JSON (number) or a form (text); undefined when absent or blank. */
  function centsField(v: unknown): number | undefined | false {
    if (v === undefined || v === "") return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    return Number.isInteger(n) && n > 0 ? n : false;
  }
  const notificationUrlOf = (p: MpPaymentRecord) => preferences.get(p.preference_id)?.notification_url;

  app.post("/_emulator/mercadopago/payments/:id/status", async (req, res) => {
    const p = mpPayments.get(Number(req.params.id));
    if (!p) return answer(req, res, 404, { message: "El pago no existe." });
    const b = req.body as { status?: unknown; amountCents?: unknown };
    const to = b.status as MpAfterStatus;
    if (!MP_AFTER_STATUSES.includes(to)) return answer(req, res, 400, { message: `status: uno de ${MP_AFTER_STATUSES.join(", ")}.` });
    const amountCents = centsField(b.amountCents);
    if (amountCents === false) return answer(req, res, 400, { message: "amountCents: un entero positivo de centavos." });
    const result = changeMercadoPagoStatus(p, refunds, to, { refundId: nextId, amountCents });
    if (!result.ok) return answer(req, res, 409, { message: result.message });
    if (result.refund) nextId++;
    const url = notificationUrlOf(p);
    const format = deliveryFormat(req);
    const delivery = url && format !== "none" ? await deliverMercadoPago(url, p.id, format) : undefined;
    answer(req, res, 200, { message: `Pago ${p.id}: ${p.status}.`, payment: publicPayment(p), delivery: delivery ?? null });
  });

  app.post("/_emulator/mercadopago/payments/:id/refunds/:refundId/status", async (req, res) => {
    const p = mpPayments.get(Number(req.params.id));
    if (!p) return answer(req, res, 404, { message: "El pago no existe." });
    const to = (req.body as { status?: unknown }).status;
    if (to !== "approved" && to !== "rejected") return answer(req, res, 400, { message: "status: approved o rejected." });
    const refund = settleMercadoPagoRefund(p, refunds, Number(req.params.refundId), to);
    if (!refund) return answer(req, res, 409, { message: "Esa devolución no está en proceso." });
    const url = notificationUrlOf(p);
    const format = deliveryFormat(req);
    const delivery = url && format !== "none" ? await deliverMercadoPago(url, p.id, format) : undefined;
    answer(req, res, 200, { message: `Devolución ${refund.id}: ${refund.status}.`, refund: mercadoPagoRefundView(refund), payment: publicPayment(p), delivery: delivery ?? null });
  });

  app.post("/_emulator/mercadopago/preferences/:id/pay", async (req, res) => {
    const pref = preferences.get(req.params.id);
    if (!pref) return answer(req, res, 404, { message: "La preferencia no existe." });
    const late = [true, "true", "1", "on"].includes((req.body as { late?: unknown }).late as string);
    if (expired(pref) && !late) return answer(req, res, 409, { message: "La preferencia venció (late: true paga igual)." });
    // Late: Mercado Pago approved it after the preference's expiry (a minute after it, when that is
    // still ahead: the emulator's way to play an approval that arrives after the checkout ended).
    const after = late && pref.expiration_date_to ? new Date(Math.max(Date.now(), Date.parse(pref.expiration_date_to) + 60_000)).toISOString() : undefined;
    const payment = newPayment(pref, true, after);
    const format = deliveryFormat(req);
    const delivery = pref.notification_url && format !== "none" ? await deliverMercadoPago(pref.notification_url, payment.id, format, "payment.created") : undefined;
    answer(req, res, 201, { message: `Pago ${payment.id} aprobado.`, payment: publicPayment(payment), delivery: delivery ?? null });
  });

  app.post("/_emulator/mercadopago/next-refund", (req, res) => {
    const status = (req.body as { status?: unknown }).status as MpRefundStatus;
    if (!MP_REFUND_STATUSES.includes(status)) return answer(req, res, 400, { message: `status: uno de ${MP_REFUND_STATUSES.join(", ")}.` });
    nextRefundStatus = status;
    answer(req, res, 200, { message: `La próxima devolución: ${status}.`, status });
  });

  app.post("/_emulator/pagos360/payment-request/:id/status", async (req, res) => {
    const r = p360.get(Number(req.params.id));
    if (!r) return answer(req, res, 404, { message: "La solicitud no existe." });
    const state = (req.body as { state?: unknown }).state;
    if (!isPagos360State(state)) return answer(req, res, 400, { message: "state: pending, paid, expired, canceled, reverted, refunded o rejected." });
    const refused = changePagos360State(r, state);
    if (refused) return answer(req, res, 409, { message: refused });
    const delivery = await deliverPagos360(r);
    const { owner: _o, ...out } = r;
    answer(req, res, 200, { message: `Solicitud ${r.id}: ${state}.`, paymentRequest: out, delivery: delivery ?? null });
  });

  // --- Payments made before the emulator started ---------------------------------------------

  /** Learns payments the provider already has (local mode's demo seed); again, they are replaced. */
  function registerKnownPayments(known: readonly KnownPayment[]): number {
    for (const k of known) {
      if (k.provider === "MERCADOPAGO") mpPayments.set(k.id, knownMercadoPagoPayment(k));
      else {
        p360.set(k.id, {
          id: k.id,
          owner: k.owner,
          state: k.approved ? "paid" : "rejected",
          external_reference: k.reference,
          description: "Carga",
          first_total: k.amountCents / 100,
          checkout_url: `${base}/pagos360/checkout/${k.id}`,
        });
      }
    }
    return known.length;
  }
  app.post("/_emulator/known-payments", (req, res) => {
    const known = (req.body as { payments?: unknown }).payments;
    if (!isKnownPayments(known)) return void res.status(400).json({ message: "payments: [{ provider, owner, id, reference, amountCents, approved, at }]" });
    res.json({ registered: registerKnownPayments(known) });
  });

  // --- Inspection ---------------------------------------------------------------------------

  app.get("/_emulator/state", (_req, res) => {
    res.json({ preferences: [...preferences.values()].map(({ owner: _o, ...p }) => p), payments: [...mpPayments.values()].map(publicPayment), refunds, nextRefundStatus, pagos360: [...p360.values()].map(({ owner: _o, ...r }) => r), deliveries, apiCalls });
  });
  app.get("/_emulator", (req, res) => {
    const msg = typeof req.query.msg === "string" ? req.query.msg : "";
    res.type("html").send(emulatorPanel({ preferences: [...preferences.values()], payments: [...mpPayments.values()].reverse(), refunds, nextRefundStatus, pagos360: [...p360.values()].reverse(), message: msg, now: Date.now() }));
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(opts.port ?? 0, host, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  base = `http://${host}:${port}`;
  return {
    url: base,
    mercadoPagoUrl: `${base}/mercadopago`,
    pagos360Url: `${base}/pagos360`,
    arcaWsaaUrl: `${base}/arca/wsaa`,
    arcaWsfeUrl: `${base}/arca/wsfe`,
    /** The ARCA emulator: registerTaxpayer, setMode, state. */
    arca,
    /** Pagos360: the webhook URL of the account with this API key (its panel's setting); "" removes it. */
    setPagos360Webhook,
    /** Payments the providers already have when it starts (local mode's demo seed). */
    registerKnownPayments,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser's keep-alive connection would hold the port until it times out.
        server.closeAllConnections();
      }),
  };
}

export type PaymentsEmulator = Awaited<ReturnType<typeof startPaymentsEmulator>>;
