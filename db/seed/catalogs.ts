// Global catalogs every installation needs: connector types (/Driver/ConnectorType), charger
// brands (/Business/ChargerBrand) and station services (/Business/Service). Upserted by their
// natural key, so running this at every start is safe and picks up label changes.
import { sql } from "drizzle-orm";
import type { PowerType } from "../../contract/schemas/constants";
import type { Db } from "../client";
import { chargerBrands, connectorTypes, services } from "../schema";

/** OCPI 2.2.1 ConnectorType codes with the names drivers use in Argentina. */
export const CONNECTOR_TYPE_CATALOG: readonly { code: string; label: string; defaultPowerType: PowerType }[] = [
  { code: "IEC_62196_T2", label: "Tipo 2", defaultPowerType: "AC_3_PHASE" },
  { code: "IEC_62196_T2_COMBO", label: "CCS2 (Combo 2)", defaultPowerType: "DC" },
  { code: "CHADEMO", label: "CHAdeMO", defaultPowerType: "DC" },
  { code: "IEC_62196_T1", label: "Tipo 1", defaultPowerType: "AC_1_PHASE" },
  { code: "IEC_62196_T1_COMBO", label: "CCS1 (Combo 1)", defaultPowerType: "DC" },
  { code: "GBT_AC", label: "GB/T AC", defaultPowerType: "AC_1_PHASE" },
  { code: "GBT_DC", label: "GB/T DC", defaultPowerType: "DC" },
  { code: "DOMESTIC_F", label: "Schuko", defaultPowerType: "AC_1_PHASE" },
  { code: "DOMESTIC_I", label: "Domiciliario (IRAM 2073)", defaultPowerType: "AC_1_PHASE" },
  { code: "IEC_60309_2_single_16", label: "Industrial CEE monofásico 16 A", defaultPowerType: "AC_1_PHASE" },
  { code: "IEC_60309_2_three_32", label: "Industrial CEE trifásico 32 A", defaultPowerType: "AC_3_PHASE" },
  { code: "TESLA_S", label: "Tesla", defaultPowerType: "DC" },
];

export const CHARGER_BRAND_CATALOG: readonly string[] = [
  "ABB",
  "Siemens",
  "Schneider Electric",
  "WEG",
  "Wallbox",
  "Delta",
  "Circontrol",
  "Alfen",
  "KEBA",
  "Enel X",
  "Tesla",
  "Efacec",
  "Kempower",
];

/** OCPI 2.2.1 Facility codes (ocpi: true) plus a few amenities OCPI has no code for. */
export const SERVICE_CATALOG: readonly { code: string; label: string; ocpi: boolean }[] = [
  { code: "WIFI", label: "Wi-Fi", ocpi: true },
  { code: "RESTROOMS", label: "Baños", ocpi: false },
  { code: "CAFE", label: "Cafetería", ocpi: true },
  { code: "RESTAURANT", label: "Restaurante", ocpi: true },
  { code: "SHOP", label: "Tienda", ocpi: false },
  { code: "COVERED_PARKING", label: "Estacionamiento techado", ocpi: false },
  { code: "HOTEL", label: "Hotel", ocpi: true },
  { code: "MALL", label: "Shopping", ocpi: true },
  { code: "SUPERMARKET", label: "Supermercado", ocpi: true },
  { code: "MUSEUM", label: "Museo", ocpi: true },
  { code: "RECREATION_AREA", label: "Parque", ocpi: true },
  { code: "NATURE", label: "Naturaleza", ocpi: true },
  { code: "SPORT", label: "Centro deportivo", ocpi: true },
  { code: "FUEL_STATION", label: "Estación de servicio", ocpi: true },
  { code: "AIRPORT", label: "Aeropuerto", ocpi: true },
  { code: "TRAIN_STATION", label: "Estación de tren", ocpi: true },
  { code: "METRO_STATION", label: "Estación de subte", ocpi: true },
  { code: "BUS_STOP", label: "Parada de colectivo", ocpi: true },
  { code: "TAXI_STAND", label: "Parada de taxis", ocpi: true },
  { code: "BIKE_SHARING", label: "Bicicletas compartidas", ocpi: true },
  { code: "PARKING_LOT", label: "Playa de estacionamiento", ocpi: true },
  { code: "CARPOOL_PARKING", label: "Estacionamiento para viajes compartidos", ocpi: true },
];

export interface CatalogCounts {
  connectorTypes: number;
  chargerBrands: number;
  services: number;
}

/** Inserts missing catalog rows and updates changed ones; rows that match are not touched. */
export async function seedCatalogs(db: Db): Promise<CatalogCounts> {
  await db.transaction(async (tx) => {
    await tx
      .insert(connectorTypes)
      .values(CONNECTOR_TYPE_CATALOG.map((c, i) => ({ ...c, sortOrder: i + 1 })))
      .onConflictDoUpdate({
        target: connectorTypes.code,
        set: {
          label: sql`excluded.label`,
          defaultPowerType: sql`excluded.default_power_type`,
          sortOrder: sql`excluded.sort_order`,
          updatedAt: sql`now()`,
        },
        // Only rows that changed, so updated_at means something and reruns write nothing.
        setWhere: sql`(${connectorTypes.label}, ${connectorTypes.defaultPowerType}, ${connectorTypes.sortOrder})
          is distinct from (excluded.label, excluded.default_power_type, excluded.sort_order)`,
      });

    await tx
      .insert(chargerBrands)
      .values(CHARGER_BRAND_CATALOG.map((name, i) => ({ name, sortOrder: i + 1 })))
      .onConflictDoUpdate({
        target: chargerBrands.name,
        set: { sortOrder: sql`excluded.sort_order`, updatedAt: sql`now()` },
        setWhere: sql`${chargerBrands.sortOrder} is distinct from excluded.sort_order`,
      });

    await tx
      .insert(services)
      .values(SERVICE_CATALOG.map((s, i) => ({ ...s, sortOrder: i + 1 })))
      .onConflictDoUpdate({
        target: services.code,
        set: { label: sql`excluded.label`, ocpi: sql`excluded.ocpi`, sortOrder: sql`excluded.sort_order`, updatedAt: sql`now()` },
        setWhere: sql`(${services.label}, ${services.ocpi}, ${services.sortOrder})
          is distinct from (excluded.label, excluded.ocpi, excluded.sort_order)`,
      });
  });

  return {
    connectorTypes: await db.$count(connectorTypes),
    chargerBrands: await db.$count(chargerBrands),
    services: await db.$count(services),
  };
}
