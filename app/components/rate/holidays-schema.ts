// The form of «Feriados locales»: one date per row, typed DD/MM/AAAA (or AAAA-MM-DD), then the
// API's own checks (each date once, at most 60). A blank row is an error on that row, so every
// message stays on the row it is about; its «Quitar» removes it. Pure and browser-safe.
import { z } from "zod";
import { companyHolidaysSchema } from "#contract/schemas/holidays";

const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** 'DD/MM/AAAA' as 'YYYY-MM-DD' (already ISO passes through); null when it is neither or no such day. */
export function isoDate(text: string): string | null {
  const m = DMY.exec(text);
  const iso = m ? `${m[3]}-${m[2].padStart(2, "0")}-${m[1].padStart(2, "0")}` : text;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const d = new Date(`${iso}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso) ? iso : null;
}

const dateRow = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = value?.trim() ?? "";
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "Ingresá la fecha (DD/MM/AAAA) o quitá la fila." });
      return z.NEVER;
    }
    const iso = isoDate(text);
    if (!iso) {
      ctx.addIssue({ code: "custom", message: `«${text}» no es una fecha válida: usá DD/MM/AAAA, por ejemplo 15/03/2027.` });
      return z.NEVER;
    }
    return iso;
  });

export const holidaysFormSchema = z
  .object({ dates: z.array(dateRow).optional().transform((rows) => rows ?? []) })
  .pipe(companyHolidaysSchema as unknown as z.ZodType<z.output<typeof companyHolidaysSchema>, { dates: string[] }>);
