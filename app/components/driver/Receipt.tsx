// The driver's receipt on their status page (/cargar/pago/{id}): where and when, the energy and
// time with each time-of-use band's share, the price's lines as charged, the refund, and the
// fiscal voucher with its PDF (a link carrying the status page's own secret).
import { Fragment } from "react";
import type { PaymentView, Receipt } from "#contract/dto";
import { formatArs } from "#domain/money";

export const kwh = (wh: number) => `${(wh / 1000).toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} kWh`;
const when = (iso: string) => new Date(iso).toLocaleString("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });

export function ReceiptView({ p, token }: { p: PaymentView; token: string }) {
  const r = p.receipt!;
  const pdfHref = `/cargar/pago/${encodeURIComponent(p.id)}/factura?t=${encodeURIComponent(token)}`;
  return (
    <section className="driver-card" aria-labelledby="receipt" data-testid="receipt">
      <h2 id="receipt">Comprobante</h2>
      <p>
        <strong>{r.companyName}</strong>
        {/* A CUIT never breaks at its hyphens. */}
        {r.cuit ? (
          <>
            {" · "}
            <span className="driver-nowrap" data-testid="receipt-cuit">
              CUIT {r.cuit}
            </span>
          </>
        ) : null}
      </p>
      <p className="driver-muted">
        {r.stationName} · {r.address}
        <br />
        {r.chargerName} · conector {r.connectorNumber} · {when(r.startedAt)}
      </p>
      <dl className="driver-figures">
        <dt>Energía cargada</dt>
        <dd data-testid="receipt-energy">{kwh(r.energyWh)}</dd>
        <dt>Tiempo de carga</dt>
        <dd>{r.chargingMinutes} min</dd>
        {r.idleMinutes ? (
          <>
            <dt>Tiempo inactivo</dt>
            <dd>{r.idleMinutes} min</dd>
          </>
        ) : null}
        {r.bands.map((b) => (
          <Fragment key={b.label}>
            <dt>{b.label}</dt>
            <dd data-testid="receipt-band">
              {kwh(b.energyWh)} · {b.minutes} min · {formatArs(b.amountCents)}
            </dd>
          </Fragment>
        ))}
        <dt>Cargo por energía</dt>
        <dd>{formatArs(r.breakdown.energyCents)}</dd>
        <dt>Cargo por tiempo</dt>
        <dd>{formatArs(r.breakdown.timeCents)}</dd>
        <dt>Cargo por carga</dt>
        <dd>{formatArs(r.breakdown.sessionFeeCents)}</dd>
        <dt>Penalidad por inactividad</dt>
        <dd>{formatArs(r.breakdown.idleCents)}</dd>
        <dt>IVA</dt>
        <dd>{formatArs(r.breakdown.vatCents)}</dd>
        <dt>Pagaste</dt>
        <dd>{formatArs(r.prepaidCents)}</dd>
        <dt>Cobrado</dt>
        <dd data-testid="charged">{formatArs(r.chargedCents)}</dd>
        <dt>Devuelto</dt>
        <dd data-testid="refunded">{formatArs(r.refundedCents)}</dd>
        {r.pendingRefundCents > 0 ? (
          <>
            <dt>A devolver</dt>
            <dd data-testid="pending-refund">{formatArs(r.pendingRefundCents)} — la estación te lo devuelve por Pagos360</dd>
          </>
        ) : null}
      </dl>
      {r.bandsEstimated ? <p className="driver-muted">Energía por franja estimada entre lecturas.</p> : null}
      <InvoiceLine r={r} pdfHref={pdfHref} />
    </section>
  );
}

/** The fiscal voucher: its number and CAE with the PDF once ARCA authorised it, or that it is on its way. */
function InvoiceLine({ r, pdfHref }: { r: Receipt; pdfHref: string }) {
  if (r.invoice) {
    return (
      <p data-testid="receipt-invoice">
        <strong>{r.invoice}</strong>
        <br />
        <a href={pdfHref} data-testid="receipt-invoice-pdf" rel="noreferrer">
          Descargar la factura (PDF)
        </a>
        <br />
        <span className="driver-muted">También te la enviamos por correo.</span>
      </p>
    );
  }
  if (!r.invoicePending) return null;
  return (
    <p data-testid="receipt-invoice" data-pending="true">
      <strong>Factura en trámite</strong>
      <br />
      <span className="driver-muted">ARCA todavía no la autorizó. Te la enviamos por correo apenas la autorice, y la vas a poder descargar desde esta página.</span>
    </p>
  );
}
