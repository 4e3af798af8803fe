// GET /Business/Payments/Reconciliation: the company's payments of a period against each
// provider's own record (payments/reconciliation.ts, ADR 0040); …/Export.csv the same differences
// as a file; POST …/Run reconciles now and notifies the differences not notified before.
import { Hono } from "hono";
import { csvDocument } from "#domain/csv";
import { DIFFERENCE_KIND_LABELS, type Difference } from "#domain/reconciliation";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { reconciliationQuery, RECONCILIATION_MAX_DAYS } from "#contract/schemas/queries";
import type { ReconciliationDto } from "#contract/dto";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { readQuery } from "../http";
import { ApiError } from "../problem";
import type { DriverPayments, ReconciliationReport } from "../../payments";
import { PROVIDER_NAMES } from "../../payments/labels";

const DAY_MS = 86_400_000;
/** Without dates: the daily run's window, the last 7 days. */
const DEFAULT_DAYS = 7;

const CSV_HEADER = ["Diferencia", "Proveedor", "Pago", "Pago en el proveedor", "Enchufá", "Proveedor (valor)", "Detalle"] as const;

/** The period asked: both ends, or the last 7 days up to one of them; longer than the maximum is a 422 on `from`. */
function period(query: { from?: Date; to?: Date }, now: Date): { from: Date; to: Date } {
  const to = query.to ?? (query.from ? new Date(Math.min(now.getTime(), query.from.getTime() + DEFAULT_DAYS * DAY_MS)) : now);
  const from = query.from ?? new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  if (from >= to) throw new ApiError(422, "validation", "La fecha 'hasta' debe ser posterior a 'desde'.", { errors: { to: ["La fecha 'hasta' debe ser posterior a 'desde'."] } });
  if (to.getTime() - from.getTime() > RECONCILIATION_MAX_DAYS * DAY_MS) {
    const message = `La conciliación abarca hasta ${RECONCILIATION_MAX_DAYS} días: elegí un período más corto.`;
    throw new ApiError(422, "validation", message, { errors: { from: [message] } });
  }
  return { from, to };
}

function toDto(report: ReconciliationReport & { reported?: number }, from: Date, to: Date): ReconciliationDto {
  return { differences: report.differences, checked: report.checked, totals: report.totals, unchecked: report.unchecked, from: from.toISOString(), to: to.toISOString(), ...(report.reported === undefined ? {} : { reported: report.reported }) };
}

/** A difference's value in the file: amounts in pesos with a decimal comma, the rest as it is. */
function cellValue(d: Difference, value: string | null): string {
  if (value === null) return "";
  return d.kind === "AMOUNT" || d.kind === "REFUNDED" || d.kind === "UNKNOWN_TO_US" ? (Number(value) / 100).toFixed(2).replace(".", ",") : value;
}

export function paymentReconciliationRoutes({ now }: ApiServices, driverPayments: DriverPayments) {
  const r = new Hono<AppEnv>();

  r.get("/", async (c) => {
    const { from, to } = period(await readQuery(c, reconciliationQuery), now());
    return c.json(toDto(await driverPayments.reconcile(tenant(c).id, from, to), from, to));
  });

  r.get("/Export.csv", async (c) => {
    const { from, to } = period(await readQuery(c, reconciliationQuery), now());
    const report = await driverPayments.reconcile(tenant(c).id, from, to);
    const rows = report.differences.map((d) => [DIFFERENCE_KIND_LABELS[d.kind], PROVIDER_NAMES[d.provider], d.paymentId, d.externalId, cellValue(d, d.ours), cellValue(d, d.theirs), d.description]);
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: DEFAULT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(d).replace(/-/g, "");
    return c.body(csvDocument(CSV_HEADER, rows), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="conciliacion-${day(from)}-${day(new Date(to.getTime() - 1))}.csv"`,
      "X-Export-Rows": String(rows.length),
      "X-Export-Truncated": "false",
    });
  });

  r.post("/Run", async (c) => {
    const { from, to } = period(await readQuery(c, reconciliationQuery), now());
    return c.json(toDto(await driverPayments.reconcileAndNotify(tenant(c).id, from, to), from, to));
  });

  return r;
}
