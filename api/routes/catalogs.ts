// Global catalogs: station services, charger brands, connector types (seeded, read-only).
import { asc } from "drizzle-orm";
import { Hono } from "hono";
import { chargerBrands, connectorTypes, services as serviceTable } from "#db/schema";
import type { ApiServices, AppEnv } from "../env";
import type { ChargerBrandDto, ConnectorTypeDto, ServiceDto } from "#contract/dto";

const CATALOG_CACHE = { "Cache-Control": "private, max-age=300" };

/** GET /Business/Service */
export function serviceRoutes({ db }: ApiServices) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const rows = await db
      .select({ id: serviceTable.id, code: serviceTable.code, label: serviceTable.label })
      .from(serviceTable)
      .orderBy(asc(serviceTable.sortOrder), asc(serviceTable.label));
    return c.json(rows satisfies ServiceDto[], 200, CATALOG_CACHE);
  });
}

/** GET /Business/ChargerBrand */
export function chargerBrandRoutes({ db }: ApiServices) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const rows = await db
      .select({ id: chargerBrands.id, name: chargerBrands.name })
      .from(chargerBrands)
      .orderBy(asc(chargerBrands.sortOrder), asc(chargerBrands.name));
    return c.json(rows satisfies ChargerBrandDto[], 200, CATALOG_CACHE);
  });
}

/** GET /Driver/ConnectorType */
export function connectorTypeRoutes({ db }: ApiServices) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const rows = await db
      .select({ id: connectorTypes.id, code: connectorTypes.code, label: connectorTypes.label, defaultPowerType: connectorTypes.defaultPowerType })
      .from(connectorTypes)
      .orderBy(asc(connectorTypes.sortOrder), asc(connectorTypes.label));
    return c.json(rows satisfies ConnectorTypeDto[], 200, CATALOG_CACHE);
  });
}
