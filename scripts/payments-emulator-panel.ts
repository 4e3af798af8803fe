// The payments emulator's panel (GET /_emulator): what a seller does in Mercado Pago's or
// Pagos360's back office after a payment, and what the providers do on their own (a chargeback, a
// dispute, a late or second payment), one button each. Plain HTML forms that work without
// JavaScript: each button posts to the same route a script calls (README, "payments emulator"),
// and the emulator answers a form with a redirect back here and a message.
import { mercadoPagoFeeCents, type MpPaymentRecord, type MpRefundRecord, type MpRefundStatus } from "./payments-emulator-model";

interface PanelPreference {
  id: string;
  external_reference: string;
  expiration_date_to?: string;
}
interface PanelPagos360 {
  id: number;
  state: string;
  external_reference: string;
  first_total: number;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (pesos: number) => new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" }).format(pesos);

function button(label: string, action: string, fields: Record<string, string> = {}) {
  const hidden = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join("");
  return `<form method="post" action="${esc(action)}" class="inline">${hidden}<button>${esc(label)}</button></form>`;
}

function mercadoPagoRow(p: MpPaymentRecord, pref: PanelPreference | undefined, refunds: readonly MpRefundRecord[], now: number) {
  const status = `/_emulator/mercadopago/payments/${p.id}/status`;
  const pay = pref ? `/_emulator/mercadopago/preferences/${encodeURIComponent(pref.id)}/pay` : "";
  const fee = p.date_approved ? mercadoPagoFeeCents(Math.round(p.transaction_amount * 100)) / 100 : 0;
  const expired = pref?.expiration_date_to !== undefined && Date.parse(pref.expiration_date_to) < now;
  const mine = refunds.filter((r) => r.payment_id === p.id);
  const refundList = mine
    .map(
      (r) =>
        `<li>Devolución ${r.id} (${r.origin === "panel" ? "panel" : "API"}): ${esc(money(r.amount))}, ${esc(r.status)}${
          r.status === "in_process"
            ? ` ${button("Aprobar devolución", `${status.replace(/status$/, "")}refunds/${r.id}/status`, { status: "approved" })} ${button("Rechazar devolución", `${status.replace(/status$/, "")}refunds/${r.id}/status`, { status: "rejected" })}`
            : ""
        }</li>`,
    )
    .join("");
  // One form, several buttons: each names its own route (formaction) and value, so a click sends
  // only its own; the IPN box and the amount go with any of them. The refund comes first: Enter
  // in the amount field presses the form's first button.
  return `<tr><td>${p.id}</td><td><code>${esc(p.external_reference)}</code></td><td>${esc(money(p.transaction_amount))}<br><small>comisión ${esc(money(fee))} · neto ${esc(money(p.transaction_amount - fee))}</small></td>
<td><strong>${esc(p.status)}</strong><br><small>${esc(p.status_detail)}${expired ? " · preferencia vencida" : ""}</small>${mine.length ? `<ul>${refundList}</ul>` : ""}</td>
<td><form method="post" action="${status}">
<label>Centavos a devolver (vacío: todo lo que queda) <input name="amountCents" inputmode="numeric" size="8"></label>
<button formaction="${status}" name="status" value="refunded">Devolver desde el panel</button><br>
<button formaction="${status}" name="status" value="charged_back">Contracargo</button>
<button formaction="${status}" name="status" value="in_mediation">Abrir disputa</button>
<button formaction="${status}" name="status" value="approved">Resolver disputa a favor</button>
${pay ? `<button formaction="${esc(pay)}">Pagar otra vez</button><button formaction="${esc(pay)}" name="late" value="true">Aprobar tarde</button>` : ""}
<br><label><input type="checkbox" name="delivery" value="ipn"> Notificar por IPN (sin firma)</label>
</form></td></tr>`;
}

function pagos360Row(r: PanelPagos360) {
  const action = `/_emulator/pagos360/payment-request/${r.id}/status`;
  return `<tr><td>${r.id}</td><td><code>${esc(r.external_reference)}</code></td><td>${esc(money(r.first_total))}</td><td><strong>${esc(r.state)}</strong></td>
<td>${button("Revertir", action, { state: "reverted" })} ${button("Devolver", action, { state: "refunded" })} ${button("Cancelar", action, { state: "canceled" })} ${button("Vencer", action, { state: "expired" })}</td></tr>`;
}

export function emulatorPanel(s: {
  preferences: readonly PanelPreference[];
  payments: readonly MpPaymentRecord[];
  refunds: readonly MpRefundRecord[];
  nextRefundStatus: MpRefundStatus;
  pagos360: readonly PanelPagos360[];
  message: string;
  now: number;
}) {
  const prefs = new Map(s.preferences.map((p) => [p.id, p]));
  const options = (["approved", "in_process", "rejected"] as const)
    .map((st) => `<option value="${st}"${st === s.nextRefundStatus ? " selected" : ""}>${st}</option>`)
    .join("");
  const mp = s.payments.length
    ? `<table><thead><tr><th>Pago</th><th>Referencia</th><th>Monto</th><th>Estado</th><th>Acciones</th></tr></thead><tbody>${s.payments.map((p) => mercadoPagoRow(p, prefs.get(p.preference_id), s.refunds, s.now)).join("")}</tbody></table>`
    : "<p>Todavía no hay pagos.</p>";
  const p360 = s.pagos360.length
    ? `<table><thead><tr><th>Solicitud</th><th>Referencia</th><th>Monto</th><th>Estado</th><th>Acciones</th></tr></thead><tbody>${s.pagos360.map(pagos360Row).join("")}</tbody></table>`
    : "<p>Todavía no hay solicitudes.</p>";
  return `<!doctype html><html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Emulador de pagos: panel</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#111}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left;vertical-align:top}button{margin:2px;padding:6px 10px;cursor:pointer}form.inline{display:inline}small{color:#555}</style></head>
<body><main><h1>Emulador de pagos <small>(local)</small></h1>
<p><a href="/_emulator/arca">Emulador de ARCA (factura electrónica): en línea, caído o lento</a></p>
${s.message ? `<p role="status"><strong>${esc(s.message)}</strong></p>` : ""}
<p><small>Cada acción cambia el pago en el proveedor emulado y envía su notificación como la envía el proveedor. Estado en JSON: <a href="/_emulator/state">/_emulator/state</a>.</small></p>
<h2>Mercado Pago</h2>
<form method="post" action="/_emulator/mercadopago/next-refund"><label>La próxima devolución por API queda <select name="status">${options}</select></label> <button>Guardar</button></form>
${mp}
<h2>Pagos360</h2>
${p360}
</main></body></html>`;
}
