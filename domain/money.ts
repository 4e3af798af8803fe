// Argentine pesos. Amounts are integer centavos everywhere; this is the only place that
// turns them into text and back.

const currency = new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" });
const plain = new Intl.NumberFormat("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** `123456` → `"$ 1.234,56"` (es-AR, with a no-break space after the sign). */
export function formatArs(cents: number): string {
  return currency.format(cents / 100);
}

/** `123456` → `"1.234,56"`: the value a money input shows, which `parseArsInput` reads back. */
export function formatArsInput(cents: number): string {
  return plain.format(cents / 100);
}

/**
 * Reads an amount typed by a person into centavos; null when it is not an amount.
 * es-AR first: `.` groups thousands and `,` separates decimals (`"1.234,56"`, `"$ 1234,5"`).
 * Without a comma, a single `.` followed by one or two digits is taken as the decimal point
 * (`"1234.56"`, as pasted from elsewhere); `"1.234"` stays one thousand two hundred thirty-four.
 * At most two decimals: centavos are not silently rounded.
 */
export function parseArsInput(input: string): number | null {
  let s = input.replace(/[\s\u00a0]/g, "").replace(/^\$|^ARS/i, "");
  let negative = false;
  if (s.startsWith("-")) {
    negative = true;
    s = s.slice(1).replace(/^\$/, "");
  }
  if (s === "") return null;

  let intPart: string;
  let fracPart = "";
  if (s.includes(",")) {
    const [i, f, ...rest] = s.split(",");
    if (rest.length > 0) return null;
    intPart = i;
    fracPart = f;
  } else if (/^\d+\.\d{1,2}$/.test(s)) {
    [intPart, fracPart] = s.split(".");
  } else {
    intPart = s;
  }

  if (intPart === "") intPart = "0";
  // Thousands groups must be well formed: "1.234.567", never "12.34".
  if (intPart.includes(".")) {
    if (!/^\d{1,3}(\.\d{3})+$/.test(intPart)) return null;
    intPart = intPart.replace(/\./g, "");
  }
  if (!/^\d+$/.test(intPart) || !/^\d{0,2}$/.test(fracPart)) return null;

  const cents = Number(intPart) * 100 + Number(fracPart.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return negative && cents !== 0 ? -cents : cents;
}

/** 21 % general VAT rate in Argentina, in basis points. */
export const DEFAULT_VAT_RATE_BP = 2100;
