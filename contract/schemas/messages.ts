// Spanish (es-AR) messages shared by the API and the forms. Pure: importable from the browser.
import type { z } from "zod";

export const MSG = {
  required: "Este campo es obligatorio.",
  invalid: "El valor no es válido.",
  invalidOption: "Elegí una opción válida.",
  email: "Ingresá un correo electrónico válido.",
  url: "Ingresá una dirección web válida.",
  integer: "Ingresá un número entero.",
  number: "Ingresá un número.",
  date: "Ingresá una fecha válida.",
  dateRange: "Ingresá una fecha entre 1970 y 2999.",
  controlChars: "El texto tiene caracteres no permitidos.",
  tooLong: (max: number) => `Máximo ${max} caracteres.`,
  tooShort: (min: number) => `Mínimo ${min} caracteres.`,
  min: (min: number | bigint) => `Debe ser mayor o igual a ${min}.`,
  max: (max: number | bigint) => `Debe ser menor o igual a ${max}.`,
  minItems: (min: number | bigint) => `Elegí al menos ${min}.`,
  maxItems: (max: number | bigint) => `Como máximo ${max} elementos.`,
  unknownField: "Campo no permitido.",
  imageFormat: "Formato de archivo no soportado.",
  imageTooLarge: "La imagen excede el tamaño máximo permitido de 800KB.",
  imageUnreadable: "Ocurrió un error al cargar la imagen.",
  imageDimensions: "La imagen es demasiado grande: como máximo 8000 píxeles de ancho o de alto y 40 megapíxeles.",
} as const;

type RawIssue = z.core.$ZodRawIssue;

/**
 * Spanish defaults for every zod issue a schema did not give its own message for. Pass it
 * per parse (`schema.safeParse(data, { error: spanishErrorMap })`) so schema-level messages win.
 */
export function spanishErrorMap(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null || issue.input === "") return MSG.required;
      if (issue.expected === "number" || issue.expected === "int") return MSG.number;
      if (issue.expected === "date") return MSG.date;
      return MSG.invalid;
    case "too_small": {
      const min = issue.minimum as number;
      if (issue.origin === "string") return min <= 1 ? MSG.required : MSG.tooShort(min);
      if (issue.origin === "array" || issue.origin === "set") return MSG.minItems(min);
      return MSG.min(min);
    }
    case "too_big": {
      const max = issue.maximum as number;
      if (issue.origin === "string") return MSG.tooLong(max);
      if (issue.origin === "array" || issue.origin === "set") return MSG.maxItems(max);
      return MSG.max(max);
    }
    case "invalid_format":
      if (issue.format === "email") return MSG.email;
      if (issue.format === "url") return MSG.url;
      if (issue.format === "datetime" || issue.format === "date") return MSG.date;
      return MSG.invalid;
    case "invalid_value":
      return MSG.invalidOption;
    case "unrecognized_keys":
      return MSG.unknownField;
    case "not_multiple_of":
      return MSG.invalid;
    default:
      return MSG.invalid;
  }
}

/** Error for z.number(): "obligatorio" when absent, "ingresá un número" otherwise. */
export const numberError = (issue: { input?: unknown }): string =>
  issue.input === undefined || issue.input === null || issue.input === "" ? MSG.required : MSG.number;
