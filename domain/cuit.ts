// CUIT (Clave Única de Identificación Tributaria), the Argentine tax id: 11 digits,
// `TT-NNNNNNNN-D` where TT is the type, N the number and D a mod-11 check digit (AFIP).

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * Type prefixes AFIP assigns: 20/23/24/25/26/27 people, 30/33/34 companies,
 * 50/51/55 foreign entities and people. Anything else is a typo, not a CUIT.
 */
export const CUIT_PREFIXES = ["20", "23", "24", "25", "26", "27", "30", "33", "34", "50", "51", "55"] as const;

export type CuitProblem = "format" | "prefix" | "checkDigit";

export type CuitParseResult = { ok: true; cuit: string } | { ok: false; problem: CuitProblem };

// `20-12345678-3`, `20123456783`, and the same with spaces or dots as separators.
const SHAPE = /^(\d{2})[-\s.]?(\d{8})[-\s.]?(\d)$/;

/** The 11 digits of a CUIT written as `XX-XXXXXXXX-X` or as 11 digits; null if neither. */
export function normalizeCuit(input: string): string | null {
  const m = SHAPE.exec(input.trim());
  return m ? m[1] + m[2] + m[3] : null;
}

/**
 * The check digit for the first 10 digits, or null when there is none: a remainder that
 * gives 10 has no valid digit (AFIP then issues the number under another prefix, 23/24/33),
 * and 11 maps to 0.
 */
export function cuitCheckDigit(first10: string): number | null {
  if (!/^\d{10}$/.test(first10)) throw new RangeError("cuitCheckDigit needs exactly 10 digits");
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(first10[i]) * WEIGHTS[i];
  const digit = 11 - (sum % 11);
  if (digit === 11) return 0;
  if (digit === 10) return null;
  return digit;
}

/** Normalizes and checks shape, type prefix and check digit, saying which one failed. */
export function parseCuit(input: string): CuitParseResult {
  const digits = normalizeCuit(input);
  if (!digits) return { ok: false, problem: "format" };
  if (!(CUIT_PREFIXES as readonly string[]).includes(digits.slice(0, 2))) return { ok: false, problem: "prefix" };
  const expected = cuitCheckDigit(digits.slice(0, 10));
  if (expected === null || expected !== Number(digits[10])) return { ok: false, problem: "checkDigit" };
  return { ok: true, cuit: digits };
}

export function isValidCuit(input: string): boolean {
  return parseCuit(input).ok;
}

/** `XX-XXXXXXXX-X`; input that is not CUIT-shaped comes back unchanged (trimmed). */
export function formatCuit(input: string): string {
  const digits = normalizeCuit(input);
  if (!digits) return input.trim();
  return `${digits.slice(0, 2)}-${digits.slice(2, 10)}-${digits[10]}`;
}
