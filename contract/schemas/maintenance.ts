// Inputs of a charger's maintenance: its OCPP message log, firmware updates and
// diagnostics requests (api/routes/charger-maintenance.ts).
import { z } from "zod";
import { isoDate, pageQuery, queryBool } from "./common";
import { MSG } from "./messages";

export const FIRMWARE_URL_MESSAGE = "Ingresá la dirección del firmware (http, https, ftp o ftps).";
export const DIAGNOSTICS_RANGE_MESSAGE = "«Hasta» tiene que ser posterior a «Desde».";

/** GET /Business/Charger/:id/Message: pages of 50 by default, newest first, optionally one direction. */
export const ocppMessageQuery = z.object({
  direction: z.enum(["IN", "OUT"], { error: MSG.invalidOption }).optional(),
  ...pageQuery,
  pageSize: pageQuery.pageSize.default(50),
});

export const diagnosticsQuery = z.object({ ...pageQuery });

/** Where the charger downloads its firmware from (OCPP: a URI; 2.0.1 caps it at 512). */
const firmwareUrl = z
  .string({ error: FIRMWARE_URL_MESSAGE })
  .trim()
  .min(1, { error: FIRMWARE_URL_MESSAGE, abort: true })
  .max(512, { error: MSG.tooLong(512) })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return ["http:", "https:", "ftp:", "ftps:"].includes(u.protocol) && u.hostname !== "";
      } catch {
        return false;
      }
    },
    { error: FIRMWARE_URL_MESSAGE },
  );

export const firmwareUpdateSchema = z.object({
  location: firmwareUrl,
  /** When the charger may start downloading (default: now). */
  retrieveAt: isoDate.optional(),
  /** Send it to every charger of the company with the same brand and model. */
  allOfModel: z.union([z.boolean(), queryBool]).optional().default(false),
});

export const diagnosticsRequestSchema = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((v) => !v.from || !v.to || v.from < v.to, { error: DIAGNOSTICS_RANGE_MESSAGE, path: ["to"] });
