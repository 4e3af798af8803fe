// The company's local holidays (PUT /Business/Holidays): dates its area stops — a provincial
// holiday, the town's patron saint — that every rate prices as "domingos y feriados".
import { z } from "zod";
import { MAX_COMPANY_HOLIDAYS } from "#domain/tariff-bands";
import { MSG } from "./messages";
import { localHoliday } from "./rate";

/** 'YYYY-MM-DD' as people read it: 15/03/2027. */
const dmy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

export const companyHolidaysSchema = z.object({
  dates: z
    .array(localHoliday, { error: MSG.invalid })
    .max(MAX_COMPANY_HOLIDAYS, { error: `Hasta ${MAX_COMPANY_HOLIDAYS} feriados locales por empresa: quitá los que ya pasaron.` })
    // A date twice is a typo the operator should see (the row they meant to change), not a silent merge.
    .superRefine((dates, ctx) => {
      const seen = new Set<string>();
      dates.forEach((d, i) => {
        if (seen.has(d)) ctx.addIssue({ code: "custom", path: [i], message: `El ${dmy(d)} ya está en la lista.` });
        seen.add(d);
      });
    })
    .transform((dates) => [...dates].sort()),
});
export type CompanyHolidaysInput = z.input<typeof companyHolidaysSchema>;
