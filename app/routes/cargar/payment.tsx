// /cargar/pago/{paymentId}?t={secret}: the driver's status page. It follows the payment
// pending → approved → starting → charging → finished (refund, receipt): without JavaScript it
// reloads itself (a meta refresh inside <noscript>), with it the loader is revalidated every few
// seconds. "Detener carga" is a plain form authorised by the link's secret.
import { useEffect } from "react";
import { Form, isRouteErrorResponse, useNavigation, useRevalidator } from "react-router";
import { formatArs } from "#domain/money";
import { loadPayment, stopAction, type PaymentView } from "~/lib/driver.server";
import { ReceiptView, kwh } from "~/components/driver/Receipt";
import { DriverShell } from "~/components/driver/DriverShell";
import type { Route } from "./+types/payment";

// The final steps, and a refund the station owes by hand (it waits days for a person): the page stops reloading itself.
const SETTLED_STEPS = new Set(["FINISHED", "REFUNDED", "FAILED", "REFUND_PENDING"]);
const REFRESH_SECONDS = 4;

export const meta: Route.MetaFunction = ({ matches }) => {
  const app = (matches.find((m) => m?.id === "root")?.data as { appName?: string } | undefined)?.appName ?? "Enchufá";
  return [{ title: `Tu carga - ${app}` }, { name: "robots", content: "noindex" }];
};

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("t") ?? "";
  return { payment: await loadPayment(context, params.paymentId, token), token };
}

export const action = ({ params, context, request }: Route.ActionArgs) => stopAction(context, request, params.paymentId);

const STEP_TEXT: Record<string, { title: string; text: string }> = {
  PAYING: { title: "Esperando el pago", text: "Cuando el medio de pago lo confirme, iniciamos la carga." },
  STARTING: { title: "Pago aprobado: iniciando la carga", text: "Estamos pidiendo al cargador que empiece. Si no empieza en 2 minutos, te devolvemos todo." },
  CHARGING: { title: "Cargando", text: "Podés detener la carga cuando quieras. Se detiene sola al llegar al monto que pagaste." },
  SETTLING: { title: "Carga terminada", text: "Estamos calculando el costo y devolviéndote lo que no usaste." },
  FINISHED: { title: "Carga terminada", text: "Te enviamos el comprobante por correo." },
  START_FAILED: { title: "La carga no pudo iniciar", text: "Te estamos devolviendo el total." },
  REFUNDED: { title: "La carga no pudo iniciar", text: "Te devolvimos el total del pago." },
  FAILED: { title: "El pago no se completó", text: "No te cobramos nada." },
  // Pagos360 documents no refund call (ADR 0017): the station refunds by hand; the page says so plainly.
  REFUND_PENDING: { title: "Carga terminada", text: "Te enviamos el comprobante por correo." },
};

/** What the driver is owed when the station refunds it by hand (Pagos360), in plain words. */
function pendingRefundText(p: PaymentView): { title: string; text: string } {
  const owed = formatArs(p.receipt?.pendingRefundCents ?? p.amountCents);
  const started = (p.receipt?.chargedCents ?? 0) > 0 || p.session !== null;
  return {
    title: started ? "Carga terminada: la estación te debe una devolución" : "La carga no pudo iniciar: la estación te debe el total",
    text: `Pagos360 no hace devoluciones automáticas: la estación te devuelve ${owed} por Pagos360 en unos días hábiles. Te avisamos por correo cuando lo haga.`,
  };
}

export default function PaymentStatus({ loaderData }: Route.ComponentProps) {
  const { payment: p, token } = loaderData;
  // A refund owed by the station waits for a person (days): the page stops reloading itself there too.
  const final = SETTLED_STEPS.has(p.step);
  const revalidator = useRevalidator();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (final) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, REFRESH_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [final, revalidator]);
  const step =
    p.step === "REFUND_PENDING"
      ? pendingRefundText(p)
      : p.step === "REFUNDED" && p.refundedCents < p.amountCents
        ? { title: STEP_TEXT.REFUNDED.title, text: `Te devolvimos ${formatArs(p.refundedCents)} de los ${formatArs(p.amountCents)} que pagaste.` }
        : (STEP_TEXT[p.step] ?? STEP_TEXT.PAYING);
  return (
    <DriverShell title="Tu carga">
      {final ? null : (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      )}
      <section className="driver-card" aria-labelledby="step" aria-live="polite">
        <h2 id="step" data-testid="step" data-step={p.step}>
          {step.title}
        </h2>
        <p>{step.text}</p>
        {p.failureReason ? <p className="driver-alert">{p.failureReason}</p> : null}
        <p className="driver-muted">
          {p.stationName} · {p.chargerName} · conector {p.connectorNumber} · pagaste {formatArs(p.amountCents)}
        </p>
        {p.checkoutUrl ? (
          <p>
            <a className="driver-button" href={p.checkoutUrl}>
              Ir a pagar
            </a>
          </p>
        ) : null}
      </section>
      {p.session && !p.receipt ? (
        <section className="driver-card" aria-labelledby="now">
          <h2 id="now">La carga</h2>
          <dl className="driver-figures">
            <dt>Energía</dt>
            <dd data-testid="energy">{kwh(p.session.energyWh)}</dd>
            <dt>Tiempo</dt>
            <dd>{p.session.minutes} min</dd>
            <dt>Costo hasta ahora</dt>
            <dd data-testid="cost">{p.session.costCents === null ? "—" : formatArs(p.session.costCents)}</dd>
          </dl>
          {p.canStop ? (
            <Form method="post">
              <input type="hidden" name="t" value={token} />
              <button type="submit" className="driver-button driver-button-stop" disabled={busy || p.stopRequested}>
                {p.stopRequested ? "Deteniendo…" : "Detener carga"}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
      {p.receipt ? <ReceiptView p={p} token={token} /> : null}
      {final ? null : <p className="driver-muted">Esta página se actualiza sola.</p>}
    </DriverShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && typeof (error.data as { message?: unknown })?.message === "string" ? (error.data as { message: string }).message : "No pudimos mostrar tu carga.";
  return (
    <DriverShell title="Tu carga">
      <p className="driver-alert" role="alert">
        {message}
      </p>
    </DriverShell>
  );
}
