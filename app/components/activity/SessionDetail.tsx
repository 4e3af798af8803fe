// One charging session: what happened when, the power and energy curve, and what it cost.
import { BandBreakdown } from "./BandBreakdown";
import { Form, Link, useNavigation } from "react-router";
import { Badge, Button, Callout, Card, DataList, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useAccess } from "~/lib/access";
import * as Table from "~/components/table";
import { BiArrowBack, BiErrorCircle } from "~/icons";
import { TableRoot } from "~/components/table";
import type { SessionDetailDto } from "#contract/dto";
import { ChartFigure, ChartTable, CHART_COLORS, SeriesLegend, TimeChart } from "~/components/charts/Charts";
import { formatArs, formatDateTime, formatInt, formatKw, formatKwh, formatMinutes, formatTime } from "~/components/charts/format";
import {
  disputedPayment,
  PAYMENT_STATUS_COLORS,
  PAYMENT_STATUS_LABELS,
  QR_STEP_LABELS,
  PROVIDER_LABELS,
  SESSION_PAYMENT_COLORS,
  SESSION_PAYMENT_STATUS_LABELS,
  SESSION_STATUS_COLORS,
  SESSION_STATUS_LABELS,
} from "./labels";

const oneDecimal = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 1 });

const twoDecimals = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 2 });
const pct = (bp: number) => `${twoDecimals.format(bp / 100)} %`;

/** What the close form got back: its message and what was typed. */
export interface CloseReply {
  closeError: string;
  reason: string;
}

export function SessionDetail({ session: s, backHref, close }: { session: SessionDetailDto; backHref: string; close?: CloseReply }) {
  const canClose = useAccess().can("session.close") && (s.status === "ACTIVE" || s.status === "IDLE");
  // The session's own payment status already says Contracargo once the chargeback reached it.
  const found = disputedPayment(s.payments);
  const disputed = found && !(found.status === "CHARGED_BACK" && s.paymentStatus === "CHARGED_BACK") ? found : null;
  return (
    <Flex direction="column" gap="4" data-testid="session-detail">
      <div>
        <Link to={backHref} className="back-link">
          <BiArrowBack aria-hidden="true" /> Volver a la actividad
        </Link>
      </div>
      <Flex justify="between" align="start" gap="3" wrap="wrap">
        <div>
          <Heading as="h1" size="7">
            Carga #{s.transactionId}
          </Heading>
          <Text as="p" color="gray" mt="1">
            {s.stationName ?? "Sin estación"} · {s.chargerName ?? "Cargador eliminado"} · Conector {s.connectorNumber}
            {s.connectorLabel ? ` (${s.connectorLabel})` : ""}
          </Text>
        </div>
        <Flex gap="2" wrap="wrap">
          <Badge size="3" color={SESSION_STATUS_COLORS[s.status]}>
            {SESSION_STATUS_LABELS[s.status]}
          </Badge>
          <Badge size="3" variant="soft" color={SESSION_PAYMENT_COLORS[s.paymentStatus]}>
            Pago: {SESSION_PAYMENT_STATUS_LABELS[s.paymentStatus]}
          </Badge>
          {disputed ? (
            <Badge size="3" color={PAYMENT_STATUS_COLORS[disputed.status]} data-testid="session-payment-dispute">
              {PAYMENT_STATUS_LABELS[disputed.status]}
            </Badge>
          ) : null}
        </Flex>
      </Flex>

      {s.meterFaultNotice ? (
        <Callout.Root color="amber" role="status" data-testid="meter-fault">
          <Callout.Icon>
            <BiErrorCircle aria-hidden="true" />
          </Callout.Icon>
          <Callout.Text>{s.meterFaultNotice}</Callout.Text>
        </Callout.Root>
      ) : null}

      <Grid columns={{ initial: "1", md: "2" }} gap="4">
        <Card size="2">
          <Heading as="h2" size="4" mb="3">
            Resumen
          </Heading>
          <DataList.Root size="2">
            <Item label="Energía">{formatKwh(s.energyKwh)}</Item>
            <Item label="Duración">{formatMinutes(s.durationMinutes)}</Item>
            <Item label="Inactividad">{formatMinutes(s.idleMinutes)}</Item>
            <Item label="Identificador">{s.idTag}</Item>
            <Item label="Lectura del medidor">
              {formatInt(s.meterStartWh)} Wh → {s.meterStopWh == null ? "en curso" : `${formatInt(s.meterStopWh)} Wh`}
            </Item>
            {s.stopReasonLabel ? <Item label="Motivo de fin">{s.stopReasonLabel}</Item> : null}
          </DataList.Root>
        </Card>
        <Card size="2">
          <Heading as="h2" size="4" mb="3">
            Línea de tiempo
          </Heading>
          <Timeline s={s} />
        </Card>
      </Grid>

      <Card size="2">
        <Heading as="h2" size="4" mb="2">
          Potencia y energía
        </Heading>
        <Curve s={s} />
      </Card>

      <Card size="2">
        <Flex justify="between" align="center" mb="3" gap="2" wrap="wrap">
          <Heading as="h2" size="4">
            Costo
          </Heading>
          {s.costIsEstimate ? <Badge color="amber">Estimado: la carga sigue en curso</Badge> : null}
        </Flex>
        <CostBreakdown s={s} />
        {s.bands ? <BandBreakdown bands={s.bands} /> : null}
      </Card>

      {s.payments.length ? (
        <Card size="2">
          <Heading as="h2" size="4" mb="3">
            Pagos
          </Heading>
          {/* Scrolls sideways on a phone: focusable, so the keyboard can scroll it too (no links inside). */}
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Pagos de la carga">
            <TableRoot size="1">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeaderCell>Fecha</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Proveedor</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Operación</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell className="num">Monto</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell className="num">Devuelto</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell className="num">Neto</Table.ColumnHeaderCell>
                  <Table.ColumnHeaderCell>Estado</Table.ColumnHeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {s.payments.map((p) => (
                  <Table.Row key={p.id}>
                    <Table.Cell>{formatDateTime(p.createdAt)}</Table.Cell>
                    <Table.Cell>
                      {PROVIDER_LABELS[p.provider]}
                      {p.origin === "QR" ? " (QR)" : ""}
                    </Table.Cell>
                    <Table.Cell>{p.externalId ?? "—"}</Table.Cell>
                    <Table.Cell className="num">{formatArs(p.amountCents)}</Table.Cell>
                    <Table.Cell className="num">{p.refundedCents ? formatArs(p.refundedCents) : "—"}</Table.Cell>
                    <Table.Cell className="num">{formatArs(p.netCents)}</Table.Cell>
                    <Table.Cell>
                      <Badge color={PAYMENT_STATUS_COLORS[p.status]}>{PAYMENT_STATUS_LABELS[p.status]}</Badge>
                      {p.step ? <div>{QR_STEP_LABELS[p.step]}</div> : null}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </TableRoot>
          </div>
        </Card>
      ) : null}

      {canClose ? <CloseSession s={s} reply={close} /> : null}
    </Flex>
  );
}

/**
 * For a session the charger never stopped: a plain POST with a reason (works without
 * JavaScript). The API asks a connected charger to stop first; the session is priced up to its
 * last reading.
 */
function CloseSession({ s, reply }: { s: SessionDetailDto; reply?: CloseReply }) {
  const busy = useNavigation().state === "submitting";
  const error = reply?.closeError;
  return (
    <Card size="2" asChild>
      <section aria-labelledby="close-session-title" data-testid="close-session">
        <Heading as="h2" size="4" mb="2" id="close-session-title">
          Cerrar la carga
        </Heading>
        <Text as="p" color="gray" size="2" mb="3" id="close-session-hint">
          {s.status === "ACTIVE"
            ? "Si el cargador no la terminó (por ejemplo, tras un corte), cerrala acá: si está conectado le pedimos que la detenga, y se cobra hasta su última lectura."
            : "El cargador la detuvo y espera que se desconecte el vehículo. Si eso no va a llegar, cerrala acá: no se cobra inactividad después de la detención."}
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="close" />
          <input type="hidden" name="sessionId" value={s.id} />
          <Flex direction="column" gap="2">
            <Text as="label" htmlFor="close-reason" size="2" weight="medium">
              Motivo
            </Text>
            <textarea
              id="close-reason"
              name="reason"
              rows={2}
              maxLength={200}
              defaultValue={reply?.reason}
              className="field-textarea"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "close-reason-error close-session-hint" : "close-session-hint"}
            />
            <div className="field-below" aria-live="polite">
              {error ? (
                <Text as="div" id="close-reason-error" size="2" color="red" data-testid="close-reason-error">
                  {error}
                </Text>
              ) : null}
            </div>
            <Flex>
              <Button type="submit" color="red" variant="soft" size="3" disabled={busy}>
                Cerrar la carga
              </Button>
            </Flex>
          </Flex>
        </Form>
      </section>
    </Card>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <DataList.Item>
      <DataList.Label minWidth="140px">{label}</DataList.Label>
      <DataList.Value>{children}</DataList.Value>
    </DataList.Item>
  );
}

function Timeline({ s }: { s: SessionDetailDto }) {
  const open = s.status === "ACTIVE" || s.status === "IDLE";
  const steps: { label: string; at: string | null; note?: string }[] = [
    { label: "Inicio de la carga", at: s.startedAt },
    { label: "Fin de la entrega de energía", at: s.chargingEndedAt, note: s.chargingEndedAt ? undefined : open ? "Todavía cargando" : "Sin dato" },
  ];
  if (s.idleMinutes > 0) {
    steps.push({ label: "Vehículo conectado sin cargar", at: null, note: `${formatMinutes(s.idleMinutes)} de inactividad` });
  }
  steps.push({ label: "Vehículo desconectado", at: s.unpluggedAt, note: s.unpluggedAt ? undefined : open ? "Todavía conectado" : "Sin dato" });
  steps.push({ label: "Fin de la sesión", at: s.stoppedAt, note: s.stoppedAt ? undefined : "En curso" });
  return (
    <ol className="timeline">
      {steps.map((st) => (
        <li key={st.label} data-done={st.at ? "true" : "false"}>
          <Text as="div" size="2" weight="medium">
            {st.label}
          </Text>
          <Text as="div" size="2" color="gray">
            {st.at ? formatDateTime(st.at) : st.note}
          </Text>
        </li>
      ))}
    </ol>
  );
}

function Curve({ s }: { s: SessionDetailDto }) {
  const pts = s.meterSeries;
  if (pts.length < 2) {
    return (
      <Text as="p" color="gray">
        El cargador no envió lecturas suficientes para dibujar la curva de esta carga.
      </Text>
    );
  }
  const hasPower = pts.some((p) => p.powerW != null);
  const peak = Math.max(0, ...pts.map((p) => p.powerW ?? 0)) / 1000;
  const energy = { name: "Energía acumulada (kWh)", color: CHART_COLORS.secondary, points: pts.map((p) => ({ at: p.at, value: p.energyWh / 1000 })), format: (v: number) => oneDecimal.format(v) };
  const power = { name: "Potencia (kW)", color: CHART_COLORS.primary, points: pts.map((p) => ({ at: p.at, value: p.powerW == null ? null : p.powerW / 1000 })), format: (v: number) => oneDecimal.format(v) };
  const series = hasPower ? ([power, { ...energy, dashed: true }] as const) : ([energy] as const);
  const step = Math.max(1, Math.ceil(pts.length / 60));
  return (
    <ChartFigure
      testId="session-curve"
      title="Curva de potencia y energía de la carga"
      summary={`${formatKwh(s.energyKwh)} entregados entre las ${formatTime(pts[0].at)} y las ${formatTime(pts[pts.length - 1].at)}${hasPower ? `, con una potencia máxima de ${formatKw(peak)}` : ""}.`}
      table={
        <ChartTable
          caption="Lecturas del medidor"
          rows={pts.filter((_, i) => i % step === 0 || i === pts.length - 1)}
          columns={[
            { header: "Hora", cell: (p) => formatDateTime(p.at) },
            { header: "Potencia", cell: (p) => (p.powerW == null ? "—" : formatKw(p.powerW / 1000)), numeric: true },
            { header: "Energía", cell: (p) => formatKwh(p.energyWh / 1000), numeric: true },
            { header: "Batería", cell: (p) => (p.soc == null ? "—" : `${p.soc} %`), numeric: true },
          ]}
        />
      }
    >
      {(ids) => (
        <>
          <TimeChart {...ids} series={series as never} timeFormat={formatTime} />
          <SeriesLegend items={series.map((x) => ({ name: x.name, color: x.color, dashed: "dashed" in x }))} />
        </>
      )}
    </ChartFigure>
  );
}

function CostBreakdown({ s }: { s: SessionDetailDto }) {
  const c = s.cost;
  const r = s.rateSnapshot;
  const rows: { label: string; detail?: string; cents: number }[] = [
    { label: "Energía", detail: r ? `${formatKwh(s.energyKwh)} × ${formatArs(r.pricePerKwhCents)}/kWh` : undefined, cents: c.energyCents },
    { label: "Tiempo de carga", detail: r && r.pricePerMinuteCents ? `${formatArs(r.pricePerMinuteCents)}/min` : undefined, cents: c.timeCents },
    { label: "Cargo fijo por sesión", cents: c.sessionFeeCents },
    {
      label: "Penalidad por inactividad",
      detail: r && r.idlePricePerMinuteCents ? `${formatArs(r.idlePricePerMinuteCents)}/min después de ${r.idleGraceMinutes} min de gracia${r.idleMaxCents != null ? `, tope ${formatArs(r.idleMaxCents)}` : ""}` : undefined,
      cents: c.idleCents,
    },
  ];
  const vatLabel = r ? `IVA ${pct(r.vatRateBp)}${r.vatIncluded ? " (incluido)" : ""}` : "IVA";
  return (
    <>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Detalle del costo">
        <table className="cost-table" data-testid="cost-breakdown">
          <caption className="visually-hidden">Detalle del costo de la carga</caption>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">
                  {row.label}
                  {row.detail ? <span className="cost-detail">{row.detail}</span> : null}
                </th>
                <td className="num">{formatArs(row.cents)}</td>
              </tr>
            ))}
            <tr className="cost-sub">
              <th scope="row">Subtotal</th>
              <td className="num">{formatArs(c.subtotalCents)}</td>
            </tr>
            <tr>
              <th scope="row">{vatLabel}</th>
              <td className="num">{formatArs(c.vatCents)}</td>
            </tr>
            <tr className="cost-total">
              <th scope="row">Total</th>
              <td className="num" data-testid="cost-total">
                {formatArs(c.totalCents)}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <Text as="p" size="2" color="gray" mt="2">
        {r ? `Tarifa aplicada: ${r.name} (precios al momento de iniciar la carga).` : "Esta carga no tenía una tarifa asignada."}
      </Text>
    </>
  );
}
