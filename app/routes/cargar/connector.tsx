// /cargar/{ocppIdentity}/{connectorId}: what a connector's QR opens. Public, phone
// first, plain HTML: the station, the connector and its state, the rate in plain words and the
// "Cargar" form (works without JavaScript; the action answers a redirect to the provider's checkout).
import { Form, isRouteErrorResponse, useNavigation } from "react-router";
import { formatArs } from "#domain/money";
import { checkoutAction, loadChargePoint, type ChargePointInfo, type CheckoutErrors } from "~/lib/driver.server";
import { DriverShell } from "~/components/driver/DriverShell";
import type { Route } from "./+types/connector";

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const app = (matches.find((m) => m?.id === "root")?.data as { appName?: string } | undefined)?.appName ?? "Enchufá";
  return [{ title: `${data ? `Cargar en ${data.info.stationName}` : "Cargar"} - ${app}` }];
};

export const loader = ({ params, context }: Route.LoaderArgs) => loadChargePoint(context, params.identity, params.connector);
export const action = ({ params, context, request }: Route.ActionArgs) => checkoutAction(context, request, params.identity, params.connector);

const PROVIDER_BUTTON: Record<string, string> = { MERCADOPAGO: "Pagar con Mercado Pago", PAGOS360: "Pagar con Pagos360" };
/** Pagos360 has no refund call (ADR 0017): the driver is told before paying, next to its button. */
const PAGOS360_REFUND_NOTE = "Con Pagos360, lo que no uses no vuelve automáticamente: te lo devuelve la estación por Pagos360 dentro de unos días hábiles.";

const hhmm = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** The rate's next change within 24 h: «Desde mañana 00:00: $ 420,00/kWh». */
function UpcomingText({ upcoming }: { upcoming: NonNullable<ChargePointInfo["upcoming"]> }) {
  const parts: string[] = [];
  if (upcoming.pricePerKwhCents) parts.push(`${formatArs(upcoming.pricePerKwhCents)}/kWh`);
  if (upcoming.pricePerMinuteCents) parts.push(`${formatArs(upcoming.pricePerMinuteCents)}/min`);
  if (upcoming.sessionFeeCents) parts.push(`${formatArs(upcoming.sessionFeeCents)} por carga`);
  return (
    <p className="driver-upcoming" data-testid="upcoming-price">
      Cambio de precio — desde {upcoming.day === "TODAY" ? "hoy" : "mañana"} {hhmm.format(new Date(upcoming.effectiveFrom))}: <strong>{parts.join(" + ") || "sin cargo por la energía"}</strong>.
    </p>
  );
}

const weekdayHhmm = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "$ 350,00/kWh + $ 10,00/min (Resto)": a band's prices as a driver reads them. */
function bandPrice(p: { name: string | null; pricePerKwhCents: number; pricePerMinuteCents: number }): string {
  const parts: string[] = [];
  if (p.pricePerKwhCents) parts.push(`${formatArs(p.pricePerKwhCents)}/kWh`);
  if (p.pricePerMinuteCents) parts.push(`${formatArs(p.pricePerMinuteCents)}/min`);
  return `${parts.join(" + ") || "sin cargo por la energía"}${p.name ? ` (${p.name})` : ""}`;
}

/** With time-of-use bands: «Ahora: $ 350,00/kWh (Resto) · Desde las 18:00: $ 420,00/kWh (Pico)». */
function BandNowText({ band }: { band: NonNullable<ChargePointInfo["bandNow"]> }) {
  const next = band.next;
  const when = !next ? "" : next.day === "TODAY" ? `Desde las ${hhmm.format(new Date(next.at))}` : next.day === "TOMORROW" ? `Desde mañana a las ${hhmm.format(new Date(next.at))}` : `Desde el ${weekdayHhmm.format(new Date(next.at))}`;
  return (
    <p className="driver-band" data-testid="band-now">
      Ahora: <strong>{bandPrice(band)}</strong>
      {next ? (
        <>
          {" · "}
          {when}: <strong>{bandPrice(next)}</strong>
        </>
      ) : null}
      . El precio de cada franja horaria se aplica a la energía y los minutos que cargues en ella.
    </p>
  );
}

/** The rate in plain words; with time-of-use bands its own prices apply outside them, and it says so. */
function RateText({ rate, banded }: { rate: NonNullable<ChargePointInfo["rate"]>; banded: boolean }) {
  const parts: string[] = [];
  if (rate.pricePerKwhCents) parts.push(`${formatArs(rate.pricePerKwhCents)} por kWh`);
  if (rate.pricePerMinuteCents) parts.push(`${formatArs(rate.pricePerMinuteCents)} por minuto de carga`);
  if (rate.sessionFeeCents) parts.push(`${formatArs(rate.sessionFeeCents)} por carga`);
  const vat = rate.vatIncluded ? "IVA incluido" : `más IVA (${(rate.vatRateBp / 100).toLocaleString("es-AR")} %)`;
  return (
    <div className="driver-rate">
      <p>
        {banded ? "Fuera de las franjas horarias: " : null}
        <strong>{parts.length ? parts.join(" + ") : "Sin cargo por la energía"}</strong>, {vat}.
      </p>
      {rate.idlePricePerMinuteCents > 0 ? (
        <p>
          Si dejás el vehículo enchufado después de terminar la carga, a partir de los {rate.idleGraceMinutes} minutos se cobran{" "}
          {formatArs(rate.idlePricePerMinuteCents)} por minuto{rate.idleMaxCents != null ? ` (hasta ${formatArs(rate.idleMaxCents)})` : ""}.
        </p>
      ) : null}
    </div>
  );
}

export default function ChargeAtConnector({ loaderData, actionData }: Route.ComponentProps) {
  const { info, requestKey } = loaderData;
  const errors: CheckoutErrors = actionData?.errors ?? {};
  const values = actionData?.values;
  const busy = useNavigation().state !== "idle";
  const chosen = values?.amount ?? (values?.customAmount ? "" : String(info.presets[0]));
  return (
    <DriverShell title={`Cargar en ${info.stationName}`}>
      <section className="driver-card" aria-labelledby="station">
        <h2 id="station">{info.stationName}</h2>
        <p className="driver-muted">
          {info.address}, {info.city}
        </p>
        <p>
          {info.chargerName} · Conector {info.connectorNumber}: {info.connectorType}, hasta {info.maxPowerKw.toLocaleString("es-AR")} kW
        </p>
        <p>
          Estado:{" "}
          <strong className={`driver-state driver-state-${info.state.toLowerCase()}`} data-testid="connector-state">
            {info.stateLabel}
          </strong>
        </p>
        {info.rate ? <RateText rate={info.rate} banded={info.bandNow != null} /> : null}
        {info.bandNow ? <BandNowText band={info.bandNow} /> : null}
        {info.upcoming ? <UpcomingText upcoming={info.upcoming} /> : null}
      </section>

      {info.unavailable ? (
        <p className="driver-alert" role="status" data-testid="unavailable">
          {info.unavailable}
        </p>
      ) : (
        <section className="driver-card" aria-labelledby="cargar">
          <h2 id="cargar">Cargar</h2>
          <p className="driver-muted">
            Pagás por adelantado y te devolvemos lo que no uses. La carga se detiene sola al llegar al monto.
          </p>
          {errors.form ? (
            <p className="driver-alert" role="alert" id="form-error">
              {errors.form}
            </p>
          ) : null}
          <Form method="post" noValidate>
            <input type="hidden" name="requestKey" value={requestKey} />
            <fieldset aria-describedby={errors.amount ? "amount-error" : undefined}>
              <legend>Monto a pagar</legend>
              <div className="driver-presets">
                {info.presets.map((cents) => (
                  <label key={cents} className="driver-preset">
                    <input type="radio" name="amount" value={cents} defaultChecked={chosen === String(cents)} /> {formatArs(cents)}
                  </label>
                ))}
              </div>
              <label className="driver-field">
                Otro monto en pesos (entre {formatArs(info.minCents)} y {formatArs(info.maxCents)})
                <input name="customAmount" inputMode="decimal" autoComplete="off" defaultValue={values?.customAmount ?? ""} aria-invalid={errors.amount ? true : undefined} />
              </label>
              {errors.amount ? (
                <p className="driver-error" id="amount-error">
                  {errors.amount}
                </p>
              ) : null}
            </fieldset>
            <label className="driver-field">
              Correo para el comprobante
              <input
                type="email"
                name="email"
                autoComplete="email"
                required
                defaultValue={values?.email ?? ""}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? "email-error" : undefined}
              />
            </label>
            {errors.email ? (
              <p className="driver-error" id="email-error">
                {errors.email}
              </p>
            ) : null}
            <details className="driver-field" open={Boolean(values?.buyerCuit || errors.buyerCuit || errors.buyerName)}>
              <summary>¿Necesitás factura A?</summary>
              <label className="driver-field">
                CUIT de la empresa
                <input
                  name="buyerCuit"
                  inputMode="numeric"
                  autoComplete="off"
                  defaultValue={values?.buyerCuit ?? ""}
                  aria-invalid={errors.buyerCuit ? true : undefined}
                  aria-describedby={errors.buyerCuit ? "cuit-error" : undefined}
                />
              </label>
              {errors.buyerCuit ? (
                <p className="driver-error" id="cuit-error">
                  {errors.buyerCuit}
                </p>
              ) : null}
              <label className="driver-field">
                Razón social
                <input name="buyerName" autoComplete="organization" defaultValue={values?.buyerName ?? ""} aria-invalid={errors.buyerName ? true : undefined} aria-describedby={errors.buyerName ? "buyer-name-error" : undefined} />
              </label>
              {errors.buyerName ? (
                <p className="driver-error" id="buyer-name-error">
                  {errors.buyerName}
                </p>
              ) : null}
            </details>
            <label className="driver-check">
              <input type="checkbox" name="acceptTerms" defaultChecked={values?.acceptTerms} aria-describedby={errors.acceptTerms ? "terms-error" : undefined} />
              {/* One flex item: the sentence wraps as text, not as three columns. */}
              <span data-testid="terms-text">
                Acepto los <a href="/auth/terms-conditions">términos y condiciones</a> y la tarifa de la estación.
              </span>
            </label>
            {errors.acceptTerms ? (
              <p className="driver-error" id="terms-error">
                {errors.acceptTerms}
              </p>
            ) : null}
            {errors.provider ? <p className="driver-error">{errors.provider}</p> : null}
            <div className="driver-actions">
              {info.providers.map((p) => (
                <button
                  key={p}
                  type="submit"
                  name="provider"
                  value={p}
                  className="driver-button"
                  disabled={busy}
                  aria-describedby={p === "PAGOS360" ? "pagos360-refund-note" : undefined}
                >
                  {PROVIDER_BUTTON[p]}
                </button>
              ))}
            </div>
            {info.providers.includes("PAGOS360") ? (
              <p className="driver-muted" id="pagos360-refund-note" data-testid="pagos360-refund-note">
                {PAGOS360_REFUND_NOTE}
              </p>
            ) : null}
          </Form>
        </section>
      )}
    </DriverShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && typeof (error.data as { message?: unknown })?.message === "string" ? (error.data as { message: string }).message : "No pudimos mostrar el cargador.";
  return (
    <DriverShell title="Cargar">
      <p className="driver-alert" role="alert">
        {message}
      </p>
    </DriverShell>
  );
}
