// es-AR numbers, built once per module (an Intl constructor costs ~50 µs). Apart from the date
// formatters (components/charts/format.ts) so that a screen that only counts does not load them.
const int = new Intl.NumberFormat("es-AR", { maximumFractionDigits: 0 });
const kwh = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const kw = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 0, maximumFractionDigits: 1 });
const pct = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 0, maximumFractionDigits: 1 });

export const formatInt = (n: number) => int.format(n);
/** `1234.5` → `1.234,5 kWh` */
export const formatKwh = (n: number) => `${kwh.format(n)} kWh`;
export const formatKw = (n: number) => `${kw.format(n)} kW`;
/** `97.6` → `97,6 %`; null → `—` */
export const formatPct = (n: number | null | undefined) => (n == null ? "—" : `${pct.format(n)} %`);
