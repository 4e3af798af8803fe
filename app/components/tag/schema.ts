// The forms of RFID tags and access groups: what people type, checked by the API's own
// schemas (contract/schemas/tag.ts), so the browser, the action and the API give the same Spanish
// messages on the same field names. Pure and browser-safe; loaded lazily by the forms.
import { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import { accessGroupInputSchema, tagInputSchema } from "#contract/schemas/tag";

/** The tag form posts the API's fields as they are ("on" for blocked, "" for no group or expiry). */
export const tagFormSchema = tagInputSchema;

const groupFormInput = z.object({
  name: z.string().optional(),
  allStations: z.enum(["all", "some"], { error: "Elegí qué estaciones puede usar el grupo." }),
  stationIds: z.array(z.string()).optional(),
  rateId: z.string().optional(),
  billingCuit: z.string().optional(),
  billingName: z.string().optional(),
  billingTaxCondition: z.string().optional(),
  billingMonthly: z.string().optional(),
});

type GroupApiInput = { name: string; allStations: boolean; stationIds: string[]; rateId: string | null; billingCuit: string | null; billingName: string | null; billingTaxCondition: string | null; billingMonthly: boolean };

export const groupFormSchema = groupFormInput
  .transform(
    (v): GroupApiInput => ({
      name: v.name ?? "",
      allStations: v.allStations === "all",
      stationIds: v.stationIds ?? [],
      rateId: v.rateId || null,
      billingCuit: v.billingCuit || null,
      billingName: v.billingName || null,
      billingTaxCondition: v.billingTaxCondition || null,
      // A ticked checkbox posts "on"; an unticked one posts nothing.
      billingMonthly: v.billingMonthly === "on",
    }),
  )
  // The API schema takes every key as optional (defaults); ours always yields them.
  .pipe(accessGroupInputSchema as unknown as z.ZodType<z.output<typeof accessGroupInputSchema>, GroupApiInput>);

export const validateTagForm = (formData: FormData) => parseWithZod(formData, { schema: tagFormSchema });
export const validateGroupForm = (formData: FormData) => parseWithZod(formData, { schema: groupFormSchema });
