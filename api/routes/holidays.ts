// /Business/Holidays — the company's local holidays: dates its area stops (a provincial holiday,
// the town's patron saint) that every rate of the company prices as "domingos y feriados",
// besides the national calendar and each rate's own list (ADR 0042). A session keeps the list
// in force when it started (its rate snapshot), so a change applies from the next session on.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { businessUsers } from "#db/schema";
import { argentineHolidaysBetween } from "#domain/holidays.server";
import { localMoment } from "#domain/tariff-bands";
import { DEFAULT_TIME_ZONE } from "#domain/time-zone";
import { companyHolidaysSchema } from "#contract/schemas/holidays";
import type { CompanyHolidaysDto } from "#contract/dto";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { readJson } from "../http";

const YEAR_MS = 365 * 86_400_000;

export function holidayRoutes(services: ApiServices) {
  const { db, now } = services;
  const r = new Hono<AppEnv>();

  const dto = (dates: string[]): CompanyHolidaysDto => {
    const t = now().getTime();
    return { dates, national: argentineHolidaysBetween(localMoment(t, DEFAULT_TIME_ZONE).date, localMoment(t + YEAR_MS, DEFAULT_TIME_ZONE).date) };
  };

  r.get("/", async (c) => {
    const [row] = await db.select({ dates: businessUsers.localHolidays }).from(businessUsers).where(eq(businessUsers.id, tenant(c).id));
    return c.json(dto(row?.dates ?? []));
  });

  r.put("/", async (c) => {
    const { dates } = await readJson(c, companyHolidaysSchema);
    await db.update(businessUsers).set({ localHolidays: dates }).where(eq(businessUsers.id, tenant(c).id));
    return c.json(dto(dates));
  });

  return r;
}
