// The conciliation view's pieces: its Spanish labels, one row per difference, the period's totals,
// and what the view says when it lists no difference.
import { Badge, Grid } from "@radix-ui/themes";
import { EmptyState } from "~/components/Page";
import { BiCheck, BiError } from "~/icons";
import * as Table from "~/components/table";
import { formatArs, formatInt } from "~/components/charts/format";
import { PAYMENT_STATUS_LABELS, PROVIDER_LABELS } from "~/components/activity/labels";
import { Total } from "~/components/payment/PaymentList";
import { DIFFERENCE_KIND_LABELS, type DifferenceKind } from "#domain/reconciliation";
import type { ReconciliationDto } from "#contract/dto";

type Difference = ReconciliationDto["differences"][number];

/** A value of a difference as the accountant reads it: pesos for amounts, Spanish for states. */
function shown(kind: DifferenceKind, value: string | null): string {
  if (value === null) return "—";
  if (kind === "AMOUNT" || kind === "REFUNDED" || kind === "UNKNOWN_TO_US") return formatArs(Number(value));
  if (kind === "STATUS" || kind === "MISSING_AT_PROVIDER") return (PAYMENT_STATUS_LABELS as Record<string, string>)[value] ?? value;
  return value;
}

export function DifferenceRow({ d }: { d: Difference }) {
  return (
    <Table.Row data-testid="reconciliation-row">
      <Table.Cell>
        <Badge color={d.kind === "MISSING_AT_PROVIDER" || d.kind === "UNKNOWN_TO_US" ? "red" : "amber"}>{DIFFERENCE_KIND_LABELS[d.kind]}</Badge>
      </Table.Cell>
      <Table.Cell>{PROVIDER_LABELS[d.provider]}</Table.Cell>
      <Table.Cell>
        <code title={d.paymentId}>{d.paymentId.slice(0, 8)}</code>
        {d.externalId ? <> · {d.externalId}</> : null}
      </Table.Cell>
      <Table.Cell>{shown(d.kind, d.ours)}</Table.Cell>
      <Table.Cell>{shown(d.kind, d.theirs)}</Table.Cell>
      <Table.Cell>{d.description}</Table.Cell>
    </Table.Row>
  );
}

/** What the providers say of the period: gross, their fees, refunds and net (gross − refunded − fee). */
export function ReconciliationTotals({ totals, checked }: { totals: ReconciliationDto["totals"]; checked: number }) {
  return (
    <Grid columns={{ initial: "2", md: "5" }} gap="3" mb="4" data-testid="reconciliation-totals">
      <Total label="Pagos comparados" value={formatInt(checked)} testId="recon-checked" />
      <Total label="Bruto" value={formatArs(totals.grossCents)} testId="recon-gross" />
      <Total label="Comisiones" value={formatArs(totals.feeCents)} testId="recon-fee" />
      <Total label="Devuelto" value={formatArs(totals.refundedCents)} testId="recon-refunded" />
      <Total label="Neto" value={formatArs(totals.netCents)} testId="recon-net" />
    </Grid>
  );
}

export const EMPTY_TEXT = "Sin diferencias: cada pago coincide con el proveedor.";
export const NOTHING_COMPARED_TEXT = "No pudimos comparar ningún pago.";

/**
 * No difference listed. That means every payment matched only when something was compared: with
 * no provider read (none connected, or none answered) it says so instead of claiming a match.
 */
export function NoDifferences({ report }: { report: Pick<ReconciliationDto, "checked" | "unchecked"> }) {
  if (report.checked === 0 && report.unchecked.length > 0) {
    return (
      <EmptyState icon={<BiError size={48} />} title={NOTHING_COMPARED_TEXT}>
        Sin la cuenta del proveedor no hay con qué comparar: mirá los avisos de arriba.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<BiCheck size={48} />} title={EMPTY_TEXT}>
      {report.checked === 0 ? "No hubo pagos para comparar en este período." : null}
    </EmptyState>
  );
}
