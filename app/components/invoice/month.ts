// How screens name a monthly invoice's month ("noviembre de 2026" from "2026-11-01").
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];

export function monthName(billingMonth: string): string {
  return `${MONTHS[Number(billingMonth.slice(5, 7)) - 1]} de ${billingMonth.slice(0, 4)}`;
}

export const sessionsLabel = (n: number) => (n === 1 ? "1 carga" : `${n} cargas`);
