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
//   Inspection    {base}/_emulator/state (JSON: preferences, payments, refunds, Pagos360
//                 requests, webhook deliveries of both providers, API calls per path)
//
// Every account's webhook secret is EMULATOR_WEBHOOK_SECRET (the demo operator's account is
// seeded with it; type it in Pagos → Mercado Pago to connect another one).
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { signMercadoPagoManifest } from "../infra/payments/mercadopago";

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
}
interface MpPayment {
  id: number;
  owner: string;
  status: string;
  status_detail: string;
  external_reference: string;
  transaction_amount: number;
  transaction_amount_refunded: number;
  currency_id: "ARS";
  preference_id: string;
  /** ISO instant of the payment (the search's range=date_created). */
  date_created?: string;
}
interface Refund {
  id: number;
  payment_id: number;
  amount: number;
  key?: string;
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
  url: string;
  status: number | "error";
  at: string;
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
  const mpPayments = new Map<number, MpPayment>();
  const refunds: Refund[] = [];
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
    const b = req.body as { items?: { title?: string; unit_price?: number }[]; external_reference?: string; back_urls?: { success?: string }; notification_url?: string };
    const item = b.items?.[0];
    if (!item || typeof item.unit_price !== "number" || !(item.unit_price > 0) || !b.external_reference) {
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
      };
      preferences.set(id, p);
      return p;
    }) as Preference;
    res.status(201).json({ id: pref.id, init_point: pref.init_point, sandbox_init_point: pref.init_point, external_reference: pref.external_reference });
  });

  app.get("/mercadopago/checkout/:id", (req, res) => {
    const pref = preferences.get(req.params.id);
    if (!pref) return void res.status(404).type("html").send(page("No existe", "<p>Este pago no existe.</p>"));
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
    const approve = (req.body as { decision?: string }).decision === "approve";
    const payment: MpPayment = {
      id: nextId++,
      owner: pref.owner,
      status: approve ? "approved" : "rejected",
      status_detail: approve ? "accredited" : "cc_rejected_other_reason",
      external_reference: pref.external_reference,
      transaction_amount: pref.unit_price,
      transaction_amount_refunded: 0,
      currency_id: "ARS",
      preference_id: pref.id,
      date_created: new Date().toISOString(),
    };
    mpPayments.set(payment.id, payment);
    if (pref.notification_url) await deliverMercadoPago(pref.notification_url, payment.id);
    const back = new URL(pref.back_url);
    back.searchParams.set("payment_id", String(payment.id));
    back.searchParams.set("status", payment.status);
    back.searchParams.set("external_reference", payment.external_reference);
    res.redirect(303, back.toString());
  });

  /** A webhook as Mercado Pago sends it: data.id and type in the URL, x-signature over the manifest. */
  async function deliverMercadoPago(notificationUrl: string, paymentId: number) {
    const url = new URL(notificationUrl);
    url.searchParams.set("data.id", String(paymentId));
    url.searchParams.set("type", "payment");
    const requestId = randomUUID();
    const ts = String(Math.floor(Date.now() / 1000));
    const v1 = signMercadoPagoManifest(EMULATOR_WEBHOOK_SECRET, String(paymentId), requestId, ts);
    let status: Delivery["status"] = "error";
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-signature": `ts=${ts},v1=${v1}`, "x-request-id": requestId },
        body: JSON.stringify({ action: "payment.updated", api_version: "v1", type: "payment", data: { id: String(paymentId) }, live_mode: false }),
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch {
      status = "error";
    }
    deliveries.push({ provider: "MERCADOPAGO", url: url.toString(), status, at: new Date().toISOString() });
    opts.log?.(`webhook Mercado Pago → ${url.pathname}: ${status}`);
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
  const publicPayment = ({ owner: _owner, ...p }: MpPayment) => p;

  // The search as Mercado Pago answers it: by external_reference and/or a creation range
  // (range=date_created, begin_date/end_date), sorted by date_created (criteria asc|desc, newest
  // first by default), paged with offset/limit (limit ≤ 1000, default 30). Each approved payment
  // carries Mercado Pago's fee (3,99 % + 21 % IVA, paid by the collector) and what was received.
  app.get("/mercadopago/v1/payments/search", (req, res) => {
    const owner = auth(req, res);
    if (!owner) return;
    const q = (name: string) => (typeof req.query[name] === "string" ? (req.query[name] as string) : undefined);
    const ref = q("external_reference");
    const begin = q("begin_date") ? Date.parse(q("begin_date")!) : -Infinity;
    const end = q("end_date") ? Date.parse(q("end_date")!) : Infinity;
    if (Number.isNaN(begin) || Number.isNaN(end)) return void res.status(400).json({ message: "invalid date", status: 400 });
    const at = (p: MpPayment) => Date.parse(p.date_created ?? "1970-01-01T00:00:00Z");
    const matching = [...mpPayments.values()]
      .filter((p) => p.owner === owner && (ref === undefined || p.external_reference === ref) && at(p) >= begin && at(p) <= end)
      .sort((a, b) => (q("criteria") === "asc" ? at(a) - at(b) || a.id - b.id : at(b) - at(a) || b.id - a.id));
    const offset = Math.max(0, Number(q("offset") ?? 0) || 0);
    const limit = Math.min(1000, Math.max(1, Number(q("limit") ?? 30) || 30));
    const withFees = (p: MpPayment) => {
      const fee = p.status === "approved" || p.status === "refunded" ? Math.round(p.transaction_amount * 0.0399 * 1.21 * 100) / 100 : 0;
      return {
        ...publicPayment(p),
        fee_details: fee ? [{ type: "mercadopago_fee", amount: fee, fee_payer: "collector" }] : [],
        transaction_details: { total_paid_amount: p.transaction_amount, net_received_amount: Math.round((p.transaction_amount - fee) * 100) / 100 },
      };
    };
    res.json({ paging: { total: matching.length, limit, offset }, results: matching.slice(offset, offset + limit).map(withFees) });
  });
  app.get("/mercadopago/v1/payments/:id", (req, res) => {
    const p = mine(req, res);
    if (p) res.json(publicPayment(p));
  });
  app.post("/mercadopago/v1/payments/:id/refunds", (req, res) => {
    const p = mine(req, res);
    if (!p) return;
    const result = once(req, p.owner, () => {
      const left = Math.round((p.transaction_amount - p.transaction_amount_refunded) * 100) / 100;
      const asked = (req.body as { amount?: unknown }).amount;
      const amount = typeof asked === "number" ? asked : left;
      if (p.status !== "approved" || !(amount > 0) || amount > left + 1e-9) return { error: true };
      const refund: Refund = { id: nextId++, payment_id: p.id, amount, key: req.get("x-idempotency-key") };
      refunds.push(refund);
      p.transaction_amount_refunded = Math.round((p.transaction_amount_refunded + amount) * 100) / 100;
      if (p.transaction_amount_refunded >= p.transaction_amount) p.status = "refunded";
      return { id: refund.id, payment_id: p.id, amount, status: "approved" };
    }) as { error?: boolean };
    if (result.error) return void res.status(400).json({ message: "invalid refund", status: 400 });
    res.status(201).json(result);
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
  async function deliverPagos360(r: P360Request) {
    const url = p360Webhooks.get(r.owner);
    if (!url) return;
    let status: Delivery["status"] = "error";
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ entity_name: "PaymentRequest", type: r.state, entity_id: r.id, created_at: new Date().toISOString() }),
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch {
      status = "error";
    }
    deliveries.push({ provider: "PAGOS360", url, status, at: new Date().toISOString(), entityId: r.id, type: r.state });
    opts.log?.(`webhook Pagos360 → ${new URL(url).pathname}: ${status}`);
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

  // --- Inspection ---------------------------------------------------------------------------

  app.get("/_emulator/state", (_req, res) => {
    res.json({ preferences: [...preferences.values()].map(({ owner: _o, ...p }) => p), payments: [...mpPayments.values()].map(publicPayment), refunds, pagos360: [...p360.values()].map(({ owner: _o, ...r }) => r), deliveries, apiCalls });
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
    /** Pagos360: the webhook URL of the account with this API key (its panel's setting); "" removes it. */
    setPagos360Webhook,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser's keep-alive connection would hold the port until it times out.
        server.closeAllConnections();
      }),
  };
}

export type PaymentsEmulator = Awaited<ReturnType<typeof startPaymentsEmulator>>;
