// How a rate reads in Spanish: prices, VAT mode and penalties, amounts in es-AR currency.
import { formatArs } from "#domain/money";
import { formatInt } from "../charts/format";
import type { RateDto } from "#contract/dto";

type RateLike = Pick<
  RateDto,
  | "pricePerKwhCents"
  | "pricePerMinuteCents"
  | "sessionFeeCents"
  | "vatIncluded"
  | "vatRateBp"
  | "idleGraceMinutes"
  | "idlePricePerMinuteCents"
  | "idleMaxCents"
  | "idleActiveFrom"
  | "idleActiveTo"
  | "noShowFeeCents"
>;

const number = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 2 });

/** 2100 → "21 %", 1050 → "10,5 %". */
export function formatVatRate(bp: number): string {
  return `${number.format(bp / 100)} %`;
}

export function formatQuantity(n: number): string {
  return number.format(n);
}

/** "IVA incluido (21 %)" or "+ IVA 21 %". */
export function vatLabel(rate: Pick<RateDto, "vatIncluded" | "vatRateBp">): string {
  return rate.vatIncluded ? `IVA incluido (${formatVatRate(rate.vatRateBp)})` : `+ IVA ${formatVatRate(rate.vatRateBp)}`;
}

/** The rate's prices, only those it charges ("$ 350,00 / kWh", "$ 10,00 / min", "$ 500,00 por sesión"). */
export function priceParts(rate: RateLike): string[] {
  const parts: string[] = [];
  if (rate.pricePerKwhCents > 0) parts.push(`${formatArs(rate.pricePerKwhCents)} / kWh`);
  if (rate.pricePerMinuteCents > 0) parts.push(`${formatArs(rate.pricePerMinuteCents)} / min`);
  if (rate.sessionFeeCents > 0) parts.push(`${formatArs(rate.sessionFeeCents)} por sesión`);
  if (parts.length === 0) parts.push("Sin cargo");
  return parts;
}

/** "22:00 a 06:00" or null. */
export function idleWindowLabel(rate: Pick<RateDto, "idleActiveFrom" | "idleActiveTo">): string | null {
  return rate.idleActiveFrom && rate.idleActiveTo ? `${rate.idleActiveFrom} a ${rate.idleActiveTo}` : null;
}

/** "Inactividad: $ 50,00 / min después de 30 min, máx. $ 5.000,00 por sesión, de 22:00 a 06:00", or null. */
export function idlePenaltyLabel(rate: RateLike): string | null {
  if (rate.idlePricePerMinuteCents <= 0) return null;
  let text = `Inactividad: ${formatArs(rate.idlePricePerMinuteCents)} / min`;
  text += rate.idleGraceMinutes > 0 ? ` después de ${rate.idleGraceMinutes} min` : " desde el primer minuto";
  if (rate.idleMaxCents !== null) text += `, máx. ${formatArs(rate.idleMaxCents)} por sesión`;
  const window = idleWindowLabel(rate);
  if (window) text += `, de ${window}`;
  return text;
}

export function noShowLabel(rate: Pick<RateDto, "noShowFeeCents">): string | null {
  return rate.noShowFeeCents > 0 ? `No presentarse a una reserva: ${formatArs(rate.noShowFeeCents)}` : null;
}

/** "Sin uso", "1 conector", "12 conectores". */
export function connectorCountLabel(n: number): string {
  if (n === 0) return "Sin uso";
  return n === 1 ? "1 conector" : `${formatInt(n)} conectores`;
}
