// The one CSV writer of every export (sessions, audit log, RFID tags, OCPP messages). Files are
// `;`-separated with a UTF-8 BOM and CRLF, as Excel in Spanish opens them; but a spreadsheet set
// to `,` as its list separator (or one that sniffs it) splits on commas too, so a cell holding
// any separator-like character is quoted, whatever the file's own separator is. Quoting alone is
// not enough against formula injection: a text cell that starts like a formula is prefixed with
// `'` so it stays text once the spreadsheet has unquoted it.

/** Characters that make a cell quoted: any list separator a spreadsheet may use, quotes and line breaks. */
const NEEDS_QUOTES = /[,;"\t\r\n]/;
/** A leading character that makes a spreadsheet read the cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain (es-AR decimal) number: a leading minus here is a sign, not a formula. */
const PLAIN_NUMBER = /^-?\d+(,\d+)?$/;

/** One cell, safe in any spreadsheet: formulas neutralised, quoted when it holds a separator, a quote or a line break. */
export function csvCell(value: string | number | null | undefined): string {
  let v = value == null ? "" : String(value);
  if (FORMULA_START.test(v) && !PLAIN_NUMBER.test(v)) v = `'${v}`;
  return NEEDS_QUOTES.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One line of cells joined by `;`. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(";");
}

/** The whole file: BOM, header, one line per row, CRLF after each line. */
export function csvDocument(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `\uFEFF${[header, ...rows].map(csvLine).join("\r\n")}\r\n`;
}
