// RFID tags as a spreadsheet: `;`-separated, UTF-8 with BOM, so Excel in Spanish
// opens it as columns; the same columns go out (export) and come back (import):
//   idTag;titular;email;vencimiento;bloqueada;grupo
// vencimiento is dd/mm/aaaa, bloqueada "sí"/"no", grupo an access group's name. Pure: the API
// parses and formats with it; the import screen shows its messages.
import { csvDocument } from "./csv";

export const TAG_CSV_COLUMNS = ["idTag", "titular", "email", "vencimiento", "bloqueada", "grupo"] as const;
export type TagCsvColumn = (typeof TAG_CSV_COLUMNS)[number];

export const TAG_IMPORT_MAX_BYTES = 1024 * 1024;
export const TAG_IMPORT_MAX_ROWS = 5000;

const ID_TAG_RE = /^[\x21-\x7E]{1,20}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const TAG_MESSAGES = {
  idTagFormat: "Usá hasta 20 letras, números o signos, sin espacios ni acentos.",
  email: "Ingresá un correo electrónico válido.",
  date: "Ingresá la fecha como dd/mm/aaaa.",
  blocked: "Escribí «sí» o «no».",
} as const;

export interface TagCsvRow {
  idTag: string;
  holderName: string;
  email: string | null;
  /** YYYY-MM-DD */
  expiresOn: string | null;
  blocked: boolean;
  /** The group's name as written (null: no group); the API resolves it. */
  groupName: string | null;
}

export interface TagCsvError {
  /** The line of the file (1 is the header). */
  line: number;
  messages: string[];
}

export type TagCsvParse = { ok: true; rows: (TagCsvRow & { line: number })[] } | { ok: false; fileError?: string; errors: TagCsvError[] };

/** Splits CSV text into records (quotes with "" escapes, CRLF or LF), keeping each record's first line. */
function records(text: string, sep: string): { line: number; cells: string[] }[] {
  const out: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === sep) {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      cells.push(cell);
      out.push({ line: start, cells });
      cells = [];
      cell = "";
      line++;
      start = line;
    } else cell += ch;
  }
  if (cell !== "" || cells.length > 0) {
    cells.push(cell);
    out.push({ line: start, cells });
  }
  return out.filter((r) => r.cells.some((c) => c.trim() !== ""));
}

/** A cell the export protected from formula injection ('=…) comes back as written. */
const unprotect = (v: string) => (/^'[=+\-@]/.test(v) ? v.slice(1) : v);

/** dd/mm/aaaa (or d/m/aaaa) → YYYY-MM-DD, or null when it is not a real date. */
export function parseDayMonthYear(value: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 2000 || y > 2199) return null;
  return `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** YYYY-MM-DD → dd/mm/aaaa */
export function formatDayMonthYear(iso: string | null): string {
  if (!iso) return "";
  const [y, m, d] = iso.split("-");
  return `${d}/${m}/${y}`;
}

function parseBlocked(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (v === "" || v === "no" || v === "n") return false;
  if (v === "sí" || v === "si" || v === "s") return true;
  return null;
}

/**
 * Parses and checks a whole file: every row's problems, or every row. The header must name the
 * six columns (any order, any case); a row with too many or too few cells, an empty or malformed
 * idTag, a missing holder, a bad e-mail, date or «bloqueada», or an idTag repeated in the file
 * (regardless of case) is an error of that row.
 */
export function parseTagCsv(input: string): TagCsvParse {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input;
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const sep = firstLine.includes(";") ? ";" : firstLine.includes(",") ? "," : ";";
  const all = records(text, sep);
  if (all.length === 0) return { ok: false, fileError: "El archivo está vacío.", errors: [] };
  const header = all[0].cells.map((c) => c.trim().toLowerCase());
  const index = new Map<TagCsvColumn, number>();
  for (const col of TAG_CSV_COLUMNS) {
    const i = header.indexOf(col.toLowerCase());
    if (i >= 0) index.set(col, i);
  }
  const missing = TAG_CSV_COLUMNS.filter((c) => !index.has(c));
  if (missing.length > 0) {
    return { ok: false, fileError: `Faltan columnas en la primera fila: ${missing.join(", ")}. Deben ser ${TAG_CSV_COLUMNS.join(";")}.`, errors: [] };
  }
  const body = all.slice(1);
  if (body.length === 0) return { ok: false, fileError: "El archivo no tiene tarjetas: solo la fila de títulos.", errors: [] };
  if (body.length > TAG_IMPORT_MAX_ROWS) return { ok: false, fileError: `El archivo tiene ${body.length} filas; el máximo es ${TAG_IMPORT_MAX_ROWS}.`, errors: [] };

  const rows: (TagCsvRow & { line: number })[] = [];
  const errors: TagCsvError[] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of body) {
    const messages: string[] = [];
    if (cells.length !== header.length) messages.push(`La fila tiene ${cells.length} columnas y la de títulos ${header.length}.`);
    const cell = (c: TagCsvColumn) => unprotect((cells[index.get(c)!] ?? "").trim());
    const idTag = cell("idTag");
    const holderName = cell("titular");
    const email = cell("email");
    const expires = cell("vencimiento");
    const blocked = parseBlocked(cell("bloqueada"));
    const group = cell("grupo");
    if (idTag === "") messages.push("idTag: Este campo es obligatorio.");
    else if (!ID_TAG_RE.test(idTag)) messages.push(`idTag: ${TAG_MESSAGES.idTagFormat}`);
    else {
      const key = idTag.toLowerCase();
      const before = seen.get(key);
      if (before !== undefined) messages.push(`idTag: «${idTag}» ya está en la fila ${before}.`);
      else seen.set(key, line);
    }
    if (holderName === "") messages.push("titular: Este campo es obligatorio.");
    else if (holderName.length > 120) messages.push("titular: Máximo 120 caracteres.");
    if (email !== "" && (email.length > 254 || !EMAIL_RE.test(email))) messages.push(`email: ${TAG_MESSAGES.email}`);
    const expiresOn = expires === "" ? null : parseDayMonthYear(expires);
    if (expires !== "" && !expiresOn) messages.push(`vencimiento: ${TAG_MESSAGES.date}`);
    if (blocked === null) messages.push(`bloqueada: ${TAG_MESSAGES.blocked}`);
    if (group.length > 80) messages.push("grupo: Máximo 80 caracteres.");
    if (messages.length > 0) errors.push({ line, messages });
    else rows.push({ line, idTag, holderName, email: email || null, expiresOn, blocked: blocked ?? false, groupName: group || null });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

/** The whole file: BOM, header, one line per tag, CRLF. */
export function formatTagCsv(tags: { idTag: string; holderName: string; email: string | null; expiresOn: string | null; blocked: boolean; groupName: string | null }[]): string {
  return csvDocument(
    TAG_CSV_COLUMNS,
    tags.map((t) => [t.idTag, t.holderName, t.email ?? "", formatDayMonthYear(t.expiresOn), t.blocked ? "sí" : "no", t.groupName ?? ""]),
  );
}
