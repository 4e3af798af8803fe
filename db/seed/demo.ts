// The demo operator local mode starts with: a company, four stations in real Argentine
// places, a dozen chargers, three rates with penalties and ~90 days of activity priced with
// domain/pricing (the code the product uses), so every screen has something true to show.
//
// Deterministic: the data comes from a fixed-seed PRNG and every date is relative to the start
// of `now`'s day (Argentina time), so two runs on the same day produce the same rows, ids
// included. Only the live state (ongoing sessions, heartbeats) is relative to `now` itself.
// Idempotent: nothing happens when the user's business already exists; if the demo company
// exists under another login, it is handed to this one.
import { eq, inArray, or } from "drizzle-orm";
import { cuitCheckDigit } from "#domain/cuit";
import { formatArs } from "#domain/money";
import { CHARGE_POINT_ERROR_LABELS, type ChargePointErrorCode, type ChargePointStatus } from "#domain/ocpp-status";
import { isArgentineHoliday } from "#domain/holidays.server";
import { priceSessionByBand, rateSnapshotFromRow, sessionBands, usageFromSession, type RateSnapshot } from "#domain/pricing";
import type { ConnectorFormat, PaymentProviderCode, PowerType } from "#contract/schemas/constants";
import type { Db } from "../client";
import {
  businessUsers,
  chargerBrands,
  chargers,
  chargingSessions,
  connectors,
  connectorTypes,
  meterSamples,
  notifications,
  paymentAccounts,
  payments,
  rates,
  services,
  stations,
  stationServices,
  statusEvents,
  type NewCharger,
  type NewChargingSession,
  type NewConnector,
  type NewMeterSample,
  type NewNotification,
  type NewPayment,
  type NewPaymentAccount,
  type NewRate,
  type NewStation,
  type NewStatusEvent,
  type OpeningHours,
  type Rate,
} from "../schema";
import { bulkInsert } from "./bulk";
import { seedCatalogs } from "./catalogs";
import { Random } from "./random";

export const DEMO_EMAIL = "demo@enchufa.local";
export const DEMO_BUSINESS_NAME = "Enchufá Demo S.A.";
/** 30-71234567-1: a company CUIT with a valid check digit (computed, not typed). */
export const DEMO_CUIT = (() => {
  const first10 = "3071234567";
  return first10 + String(cuitCheckDigit(first10));
})();
export const DEMO_HISTORY_DAYS = 90;
/** The demo charger that starts offline (with its notification): the one "sin conexión" on Inicio. */
export const DEMO_OFFLINE_IDENTITY = "ENCH-NORD-03";

export interface SeedDemoOptions {
  firebaseUid: string;
  email: string;
  now?: Date;
  /**
   * Seals payment-provider credentials (e.g. KeyRing.encrypt from infra/crypto). Without it no
   * payment account is created: plain-text credentials must never reach the table.
   */
  sealCredentials?: (plain: string, ctx: { businessId: string; provider: PaymentProviderCode }) => string;
}

export interface DemoCounts {
  stations: number;
  chargers: number;
  connectors: number;
  rates: number;
  sessions: number;
  meterSamples: number;
  statusEvents: number;
  notifications: number;
  payments: number;
  paymentAccounts: number;
}

export interface DemoSeedResult {
  created: boolean;
  businessId: string;
  /** Rows inserted (only when created). */
  counts?: DemoCounts;
}

// ---------------------------------------------------------------------------------------------
// Fixed demo content

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Argentina keeps UTC−3 all year (no DST since 2009); the demo's "day" is the local day.
const AR_OFFSET = 3 * HOUR;

type RateKey = "AC" | "DC" | "NIGHT";

const RATES: Record<RateKey, Omit<NewRate, "id" | "businessId">> = {
  AC: {
    name: "AC Estándar",
    pricePerKwhCents: 35_000,
    pricePerMinuteCents: 0,
    sessionFeeCents: 0,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 30,
    idlePricePerMinuteCents: 5_000,
    idleMaxCents: 500_000,
    noShowFeeCents: 150_000,
  },
  DC: {
    name: "Carga rápida DC",
    pricePerKwhCents: 55_000,
    pricePerMinuteCents: 0,
    sessionFeeCents: 50_000,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 10,
    idlePricePerMinuteCents: 15_000,
    idleMaxCents: 1_500_000,
    noShowFeeCents: 300_000,
    // Time-of-use bands as a T3 commercial tariff passes them on: pico and valle on weekdays,
    // the rate's own price ("resto") the rest of the time.
    bands: [
      { name: "Pico", days: "WEEKDAY", from: "18:00", to: "23:00", pricePerKwhCents: 70_000, pricePerMinuteCents: 0 },
      { name: "Valle", days: "WEEKDAY", from: "23:00", to: "24:00", pricePerKwhCents: 40_000, pricePerMinuteCents: 0 },
      { name: "Valle", days: "WEEKDAY", from: "00:00", to: "05:00", pricePerKwhCents: 40_000, pricePerMinuteCents: 0 },
    ],
  },
  NIGHT: {
    name: "Flotas (IVA aparte, penalidad nocturna)",
    pricePerKwhCents: 28_000,
    pricePerMinuteCents: 1_000,
    sessionFeeCents: 0,
    vatIncluded: false,
    vatRateBp: 2100,
    idleGraceMinutes: 15,
    idlePricePerMinuteCents: 8_000,
    idleMaxCents: null,
    idleActiveFrom: "22:00",
    idleActiveTo: "06:00",
    noShowFeeCents: 0,
  },
};

interface ConnectorSpec {
  type: string; // connector_types.code
  format: ConnectorFormat;
  power: PowerType;
  kw: number;
  rate: RateKey | null;
}

interface ChargerSpec {
  identity: string;
  name: string;
  brand: string;
  model: string;
  meterType: string;
  cellular?: boolean;
  connectors: ConnectorSpec[];
}

interface StationSpec {
  name: string;
  address: string;
  city: string;
  province: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  parkingType: NewStation["parkingType"];
  openingHours: OpeningHours;
  published: boolean;
  services: string[];
  chargers: ChargerSpec[];
}

const T2 = (kw: number, rate: RateKey | null, format: ConnectorFormat = "SOCKET", power: PowerType = "AC_3_PHASE"): ConnectorSpec => ({
  type: "IEC_62196_T2",
  format,
  power,
  kw,
  rate,
});
const CCS2 = (kw: number, rate: RateKey | null): ConnectorSpec => ({ type: "IEC_62196_T2_COMBO", format: "CABLE", power: "DC", kw, rate });
const CHADEMO = (kw: number, rate: RateKey | null): ConnectorSpec => ({ type: "CHADEMO", format: "CABLE", power: "DC", kw, rate });

const daily = (begin: string, end: string, weekdays = [1, 2, 3, 4, 5, 6, 7]) => weekdays.map((weekday) => ({ weekday, begin, end }));
const ALWAYS: OpeningHours = { twentyFourSeven: true, periods: [] };

const STATIONS: StationSpec[] = [
  {
    name: "Enchufá Palermo",
    address: "Jerónimo Salguero 3172",
    city: "Ciudad Autónoma de Buenos Aires",
    province: "AR-C",
    postalCode: "C1425BHQ",
    latitude: -34.57648,
    longitude: -58.40325,
    parkingType: "PARKING_GARAGE",
    openingHours: ALWAYS,
    published: true,
    services: ["WIFI", "RESTROOMS", "CAFE", "MALL", "COVERED_PARKING"],
    chargers: [
      { identity: "ENCH-CABA-01", name: "Palermo AC 1", brand: "ABB", model: "Terra AC W22-T-RD-M-0", meterType: "ABB B23 112-100", connectors: [T2(22, "AC")] },
      { identity: "ENCH-CABA-02", name: "Palermo AC 2", brand: "ABB", model: "Terra AC W22-T-RD-M-0", meterType: "ABB B23 112-100", connectors: [T2(22, "AC")] },
      {
        identity: "ENCH-CABA-03",
        name: "Palermo DC",
        brand: "ABB",
        model: "Terra 54 CJG",
        meterType: "LEM DCBM 400",
        cellular: true,
        connectors: [CCS2(50, "DC"), CHADEMO(50, "DC"), T2(43, "DC", "CABLE")],
      },
      { identity: "ENCH-CABA-04", name: "Palermo Flotas", brand: "Wallbox", model: "Commander 2", meterType: "Eastron SDM630", connectors: [T2(22, "NIGHT", "CABLE")] },
    ],
  },
  {
    name: "Enchufá Nordelta",
    address: "Av. de los Lagos 7008",
    city: "Tigre",
    province: "AR-B",
    postalCode: "B1670NNA",
    latitude: -34.40391,
    longitude: -58.64705,
    parkingType: "PARKING_LOT",
    openingHours: { twentyFourSeven: false, periods: daily("08:00", "22:00") },
    published: true,
    services: ["WIFI", "SUPERMARKET", "RESTAURANT", "RESTROOMS", "SHOP"],
    chargers: [
      { identity: "ENCH-NORD-01", name: "Nordelta AC doble", brand: "Schneider Electric", model: "EVlink Pro AC", meterType: "Schneider iEM3155", connectors: [T2(22, "AC"), T2(22, "AC")] },
      { identity: "ENCH-NORD-02", name: "Nordelta DC", brand: "Delta", model: "DC Wallbox 25kW", meterType: "LEM DCBM 400", cellular: true, connectors: [CCS2(25, "DC")] },
      { identity: "ENCH-NORD-03", name: "Nordelta AC WEG", brand: "WEG", model: "WEMOB-W 7.4 kW", meterType: "WEG MMW03", connectors: [T2(7.4, "AC", "CABLE", "AC_1_PHASE")] },
    ],
  },
  {
    name: "Enchufá Córdoba Centro",
    address: "Av. Vélez Sarsfield 361",
    city: "Córdoba",
    province: "AR-X",
    postalCode: "X5000JJQ",
    latitude: -31.41963,
    longitude: -64.18825,
    parkingType: "UNDERGROUND_GARAGE",
    openingHours: { twentyFourSeven: false, periods: [...daily("07:00", "23:00", [1, 2, 3, 4, 5, 6]), ...daily("09:00", "21:00", [7])] },
    published: true,
    services: ["MALL", "CAFE", "RESTROOMS", "WIFI", "COVERED_PARKING"],
    chargers: [
      { identity: "ENCH-CBA-01", name: "Córdoba DC 150", brand: "Siemens", model: "SICHARGE D 160 kW", meterType: "Siemens PAC2200 DC", cellular: true, connectors: [CCS2(150, "DC"), CCS2(150, "DC")] },
      { identity: "ENCH-CBA-02", name: "Córdoba DC 50", brand: "Circontrol", model: "Raption 50", meterType: "Circutor CVM-C4", connectors: [CCS2(50, "DC"), CHADEMO(50, "DC")] },
      { identity: "ENCH-CBA-03", name: "Córdoba AC", brand: "Alfen", model: "Eve Double Pro-line", meterType: "Inepro PRO380", connectors: [T2(22, "AC"), T2(22, "AC")] },
    ],
  },
  {
    name: "Enchufá Mendoza Parque",
    address: "Av. Emilio Civit 701",
    city: "Mendoza",
    province: "AR-M",
    postalCode: "M5500EZB",
    latitude: -32.88536,
    longitude: -68.85652,
    parkingType: "ON_STREET",
    openingHours: ALWAYS,
    published: false,
    services: ["RECREATION_AREA", "NATURE", "CAFE", "RESTROOMS"],
    chargers: [
      { identity: "ENCH-MZA-01", name: "Mendoza DC", brand: "Efacec", model: "QC45", meterType: "LEM DCBM 400", cellular: true, connectors: [CCS2(50, "DC"), CHADEMO(50, "DC"), T2(43, "DC", "CABLE")] },
      { identity: "ENCH-MZA-02", name: "Mendoza AC", brand: "KEBA", model: "KeContact P30 c-series", meterType: "KEBA integrated", connectors: [T2(22, "NIGHT")] },
    ],
  },
];

/** A charger bought but not yet installed: shows up in "Añadir cargador". */
/** OCPP identities of the demo chargers installed at a station (the unassigned one has never connected). */
export function demoStationChargerIdentities(): string[] {
  return STATIONS.flatMap((station) => station.chargers.map((charger) => charger.identity));
}

const UNASSIGNED_CHARGER: ChargerSpec = {
  identity: "ENCH-STOCK-01",
  name: "Cargador en depósito",
  brand: "Enel X",
  model: "Waybox Pro",
  meterType: "",
  connectors: [T2(22, null, "CABLE")],
};

// ---------------------------------------------------------------------------------------------

export async function seedDemoOperator(db: Db, opts: SeedDemoOptions): Promise<DemoSeedResult> {
  const existing = await db
    .select({ id: businessUsers.id, firebaseUid: businessUsers.firebaseUid, businessName: businessUsers.businessName })
    .from(businessUsers)
    .where(or(eq(businessUsers.firebaseUid, opts.firebaseUid), eq(businessUsers.cuit, DEMO_CUIT)));
  const mine = existing.find((b) => b.firebaseUid === opts.firebaseUid);
  if (mine) return { created: false, businessId: mine.id };
  const demo = existing.find((b) => b.businessName === DEMO_BUSINESS_NAME);
  if (demo) {
    // The demo login was recreated (e.g. the auth emulator's data was wiped but not the
    // database): hand the existing demo company to the new user instead of failing on its CUIT.
    await db.update(businessUsers).set({ firebaseUid: opts.firebaseUid, email: opts.email }).where(eq(businessUsers.id, demo.id));
    return { created: false, businessId: demo.id };
  }
  if (existing.length > 0) throw new Error(`El CUIT de la demo (${DEMO_CUIT}) ya pertenece a otra empresa; no se crea la empresa de demostración.`);

  await seedCatalogs(db);
  const now = opts.now ?? new Date();
  const dayStart = new Date(Math.floor((now.getTime() - AR_OFFSET) / DAY) * DAY + AR_OFFSET);

  return db.transaction(async (tx) => {
    const plan = buildDemo({ dayStart, now, ids: new Random(`enchufa-demo-ids:${opts.firebaseUid}`) });

    // The unique firebase_uid makes a concurrent second seed stop here, not duplicate data.
    const inserted = await tx
      .insert(businessUsers)
      .values({
        id: plan.businessId,
        firebaseUid: opts.firebaseUid,
        email: opts.email,
        businessName: DEMO_BUSINESS_NAME,
        cuit: DEMO_CUIT,
        businessAddress: "Av. Corrientes 1234, Piso 8, C1043AAZ, Ciudad Autónoma de Buenos Aires",
        phoneNumber: "+54 11 4567-8900",
        status: "ACTIVE",
        localHolidays: plan.localHolidays,
        createdAt: new Date(dayStart.getTime() - 120 * DAY),
        updatedAt: new Date(dayStart.getTime() - 119 * DAY),
      })
      .onConflictDoNothing({ target: businessUsers.firebaseUid })
      .returning({ id: businessUsers.id });
    if (inserted.length === 0) {
      const [row] = await tx.select({ id: businessUsers.id }).from(businessUsers).where(eq(businessUsers.firebaseUid, opts.firebaseUid));
      return { created: false, businessId: row.id };
    }

    // Catalog ids differ between databases; resolve them by natural key.
    const typeIds = new Map(
      (await tx.select({ id: connectorTypes.id, code: connectorTypes.code }).from(connectorTypes)).map((r) => [r.code, r.id]),
    );
    const brandIds = new Map(
      (await tx.select({ id: chargerBrands.id, name: chargerBrands.name }).from(chargerBrands)).map((r) => [r.name, r.id]),
    );
    const serviceCodes = [...new Set(STATIONS.flatMap((s) => s.services))];
    const serviceIds = new Map(
      (await tx.select({ id: services.id, code: services.code }).from(services).where(inArray(services.code, serviceCodes))).map((r) => [
        r.code,
        r.id,
      ]),
    );

    await tx.insert(stations).values(plan.stations);
    await tx.insert(stationServices).values(
      plan.stationServices.map((ss) => ({ stationId: ss.stationId, serviceId: must(serviceIds.get(ss.code), ss.code), createdAt: ss.createdAt, updatedAt: ss.createdAt })),
    );
    await tx.insert(rates).values(plan.rates);
    await tx.insert(chargers).values(plan.chargers.map(({ brand, ...c }) => ({ ...c, brandId: must(brandIds.get(brand), brand) })));
    await tx.insert(connectors).values(plan.connectors.map(({ typeCode, ...c }) => ({ ...c, connectorTypeId: must(typeIds.get(typeCode), typeCode) })));
    await bulkInsert(tx, chargingSessions, plan.sessions);
    await bulkInsert(tx, meterSamples, plan.meterSamples);
    await bulkInsert(tx, statusEvents, plan.statusEvents);
    await bulkInsert(tx, notifications, plan.notifications);
    await bulkInsert(tx, payments, plan.payments);

    const accounts: NewPaymentAccount[] = [];
    if (opts.sealCredentials) {
      const seal = opts.sealCredentials;
      accounts.push(
        {
          businessId: plan.businessId,
          provider: "MERCADOPAGO",
          credentialsEncrypted: seal(JSON.stringify({ accessToken: "APP_USR-0000000000000000-000000-demo0000000000000000000000-4821", publicKey: "APP_USR-demo-public-key" }), {
            businessId: plan.businessId,
            provider: "MERCADOPAGO",
          }),
          credentialsLast4: "4821",
          accountLabel: "Enchufá Demo (MercadoPago)",
          status: "CONNECTED",
          createdAt: new Date(dayStart.getTime() - 100 * DAY),
          updatedAt: new Date(dayStart.getTime() - 100 * DAY),
        },
        {
          businessId: plan.businessId,
          provider: "PAGOS360",
          credentialsEncrypted: seal(JSON.stringify({ apiKey: "demo-pagos360-api-key-7390" }), { businessId: plan.businessId, provider: "PAGOS360" }),
          credentialsLast4: "7390",
          accountLabel: "Enchufá Demo (Pagos360)",
          status: "CONNECTED",
          createdAt: new Date(dayStart.getTime() - 95 * DAY),
          updatedAt: new Date(dayStart.getTime() - 95 * DAY),
        },
      );
      await tx.insert(paymentAccounts).values(accounts);
    }

    return {
      created: true,
      businessId: plan.businessId,
      counts: {
        stations: plan.stations.length,
        chargers: plan.chargers.length,
        connectors: plan.connectors.length,
        rates: plan.rates.length,
        sessions: plan.sessions.length,
        meterSamples: plan.meterSamples.length,
        statusEvents: plan.statusEvents.length,
        notifications: plan.notifications.length,
        payments: plan.payments.length,
        paymentAccounts: accounts.length,
      },
    };
  });
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Falta en el catálogo: ${what}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Planning (pure: builds every row in memory, then the caller inserts them)

interface PlannedConnector extends Omit<NewConnector, "connectorTypeId"> {
  id: string;
  typeCode: string;
}

interface Plan {
  businessId: string;
  /** The company's local holidays: none in the demo (it is in the city of Buenos Aires), but its sessions are priced with them like real ones. */
  localHolidays: string[];
  stations: (NewStation & { id: string })[];
  stationServices: { stationId: string; code: string; createdAt: Date }[];
  rates: (NewRate & { id: string })[];
  chargers: (Omit<NewCharger, "brandId"> & { id: string; brand: string })[];
  connectors: PlannedConnector[];
  sessions: NewChargingSession[];
  meterSamples: NewMeterSample[];
  statusEvents: NewStatusEvent[];
  notifications: NewNotification[];
  payments: NewPayment[];
}

/** One connector's place in the schedule. DC connectors of a charger share one power unit. */
interface Lane {
  stationIndex: number;
  chargerId: string;
  stationId: string;
  connectors: { row: PlannedConnector; spec: ConnectorSpec }[];
  dc: boolean;
  freeAt: number;
}

interface ConnectorState {
  meterWh: number;
  lastStatus: ChargePointStatus;
  lastAt: number;
  errorCode: string | null;
}

/** What every planning step shares: the two generators, the day, and the plan being filled. */
interface DemoContext {
  /** Figures: the same for every demo operator. */
  rnd: Random;
  /** Ids: unique to each demo operator. */
  ids: Random;
  /** Start of the demo's day (Argentina), in ms: the history ends here. */
  t0: number;
  nowMs: number;
  plan: Plan;
  /** Each connector's meter and last status, as what was planned so far leaves them. */
  connectorState: Map<string, ConnectorState>;
}

/** The demo's rates and the snapshots its sessions are priced with. */
interface DemoRates {
  rows: Map<RateKey, Rate>;
  snapshots: Map<RateKey, RateSnapshot>;
}

/** The installed chargers as the schedule sees them. */
interface Fleet {
  lanes: Lane[];
  chargerNames: Map<string, string>;
}

/** An instant `daysAgo` days before the start of the demo's day. */
function created(ctx: DemoContext, daysAgo: number): Date {
  return new Date(ctx.t0 - daysAgo * DAY);
}

function buildDemo({ dayStart, now, ids }: { dayStart: Date; now: Date; ids: Random }): Plan {
  // Data and ids come from separate generators: the figures are the same for any demo
  // operator, the ids unique to each.
  const ctx: DemoContext = {
    rnd: new Random("enchufa-demo-data-v1"),
    ids,
    t0: dayStart.getTime(),
    nowMs: now.getTime(),
    plan: emptyPlan(ids.uuid()),
    connectorState: new Map(),
  };
  const demoRates = planRates(ctx);
  const fleet = planStationsAndChargers(ctx, demoRates);

  const idTags = Array.from({ length: 48 }, (_, i) => (i < 36 ? hex8(ctx.rnd) : `APP-${String(100 + i * 37).padStart(6, "0")}`));
  const faults = planHistory(ctx, demoRates, fleet.lanes, idTags);

  planOngoingSessions(ctx, demoRates, fleet.lanes, idTags);
  const incidents = planCurrentIncidents(ctx, fleet.lanes);
  settleConnectors(ctx);
  planNotifications(ctx, fleet.chargerNames, faults, incidents);

  // Chronological order gives chronological OCPP transaction ids.
  ctx.plan.sessions.sort((a, b) => (a.startedAt as Date).getTime() - (b.startedAt as Date).getTime() || a.id!.localeCompare(b.id!));
  return ctx.plan;
}

function emptyPlan(businessId: string): Plan {
  return {
    businessId,
    localHolidays: [],
    stations: [],
    stationServices: [],
    rates: [],
    chargers: [],
    connectors: [],
    sessions: [],
    meterSamples: [],
    statusEvents: [],
    notifications: [],
    payments: [],
  };
}

function planRates(ctx: DemoContext): DemoRates {
  const { ids, plan } = ctx;
  const rows = new Map<RateKey, Rate>();
  for (const key of ["AC", "DC", "NIGHT"] as RateKey[]) {
    const spec = RATES[key];
    const row: Rate = {
      id: ids.uuid(),
      businessId: plan.businessId,
      name: spec.name,
      currency: "ARS",
      pricePerKwhCents: spec.pricePerKwhCents ?? 0,
      pricePerMinuteCents: spec.pricePerMinuteCents ?? 0,
      sessionFeeCents: spec.sessionFeeCents ?? 0,
      vatIncluded: spec.vatIncluded ?? true,
      vatRateBp: spec.vatRateBp ?? 2100,
      idleGraceMinutes: spec.idleGraceMinutes ?? 0,
      idlePricePerMinuteCents: spec.idlePricePerMinuteCents ?? 0,
      idleMaxCents: spec.idleMaxCents ?? null,
      idleActiveFrom: spec.idleActiveFrom ?? null,
      idleActiveTo: spec.idleActiveTo ?? null,
      noShowFeeCents: spec.noShowFeeCents ?? 0,
      bands: spec.bands ?? [],
      localHolidays: [],
      createdAt: created(ctx, 110),
      updatedAt: created(ctx, 110),
    };
    rows.set(key, row);
    plan.rates.push(row);
  }
  const snapshots = new Map<RateKey, RateSnapshot>([...rows].map(([k, r]) => [k, rateSnapshotFromRow(r, plan.localHolidays)]));
  return { rows, snapshots };
}

/** The stations with their services and chargers, then the charger still in stock. */
function planStationsAndChargers(ctx: DemoContext, demoRates: DemoRates): Fleet {
  const { ids, plan } = ctx;
  const fleet: Fleet = { lanes: [], chargerNames: new Map() };
  STATIONS.forEach((s, si) => {
    const stationId = ids.uuid();
    const since = 105 - si * 3;
    plan.stations.push({
      id: stationId,
      businessId: plan.businessId,
      name: s.name,
      address: s.address,
      city: s.city,
      province: s.province,
      postalCode: s.postalCode,
      country: "ARG",
      latitude: s.latitude,
      longitude: s.longitude,
      parkingType: s.parkingType,
      openingHours: s.openingHours,
      timeZone: "America/Argentina/Buenos_Aires",
      published: s.published,
      createdAt: created(ctx, since),
      updatedAt: created(ctx, since),
    });
    for (const code of s.services) plan.stationServices.push({ stationId, code, createdAt: created(ctx, since) });
    for (const c of s.chargers) planCharger(ctx, demoRates, fleet, c, stationId, si, since - 1);
  });
  planCharger(ctx, demoRates, fleet, UNASSIGNED_CHARGER, null, -1, 6);
  return fleet;
}

/** A charger, its connectors and, when installed at a station, its lanes in the schedule. */
function planCharger(ctx: DemoContext, demoRates: DemoRates, fleet: Fleet, spec: ChargerSpec, stationId: string | null, stationIndex: number, installedDaysAgo: number) {
  const { rnd, ids, t0, nowMs, plan } = ctx;
  const chargerId = ids.uuid();
  fleet.chargerNames.set(chargerId, spec.name);
  const installed = stationId !== null;
  plan.chargers.push({
    id: chargerId,
    businessId: plan.businessId,
    stationId,
    name: spec.name,
    brand: spec.brand,
    model: spec.model,
    serialNumber: `${spec.brand.slice(0, 3).toUpperCase().replace(/\s/g, "")}${rnd.int(10_000_000, 99_999_999)}`,
    ocppIdentity: spec.identity,
    enabled: true,
    heartbeatInterval: 300,
    // Boot data only for chargers that have talked to us.
    vendor: installed ? spec.brand : null,
    bootModel: installed ? spec.model : null,
    firmwareVersion: installed ? `${rnd.int(1, 5)}.${rnd.int(0, 9)}.${rnd.int(0, 30)}` : null,
    iccid: installed && spec.cellular ? `8954${String(rnd.int(0, 999_999_999)).padStart(9, "0")}${String(rnd.int(0, 999_999)).padStart(6, "0")}` : null,
    imsi: installed && spec.cellular ? `722310${String(rnd.int(0, 999_999_999)).padStart(9, "0")}` : null,
    meterType: installed ? spec.meterType : null,
    meterSerial: installed ? String(rnd.int(100_000_000, 999_999_999)) : null,
    lastBootAt: installed ? new Date(t0 - rnd.int(1, 20) * DAY + rnd.int(0, 20 * 60) * MINUTE) : null,
    lastHeartbeatAt: installed ? new Date(nowMs - rnd.int(10, 280) * 1000) : null,
    online: installed,
    createdAt: created(ctx, installedDaysAgo),
    updatedAt: created(ctx, installedDaysAgo),
  });

  const rows = spec.connectors.map((c, i) => {
    const row: PlannedConnector = {
      id: ids.uuid(),
      chargerId,
      connectorId: i + 1,
      typeCode: c.type,
      format: c.format,
      powerType: c.power,
      maxPowerKw: c.kw,
      rateId: c.rate ? demoRates.rows.get(c.rate)!.id : null,
      status: installed ? "Available" : "Unavailable",
      errorCode: "NoError",
      statusAt: created(ctx, installedDaysAgo),
      createdAt: created(ctx, installedDaysAgo),
      updatedAt: created(ctx, installedDaysAgo),
    };
    plan.connectors.push(row);
    ctx.connectorState.set(row.id, { meterWh: rnd.int(200_000, 4_000_000), lastStatus: row.status!, lastAt: t0 - installedDaysAgo * DAY, errorCode: "NoError" });
    return { row, spec: c };
  });

  if (stationId) {
    const dc = rows.filter((r) => r.spec.power === "DC");
    if (dc.length) fleet.lanes.push({ stationIndex, chargerId, stationId, connectors: dc, dc: true, freeAt: 0 });
    for (const ac of rows.filter((r) => r.spec.power !== "DC")) {
      fleet.lanes.push({ stationIndex, chargerId, stationId, connectors: [ac], dc: false, freeAt: 0 });
    }
  }
}

/** A status change reported by a connector; the connector keeps it as its latest. */
function emitStatus(
  ctx: DemoContext,
  connectorId: string,
  chargerId: string,
  status: ChargePointStatus,
  at: number,
  errorCode: string | null = "NoError",
  info?: string,
) {
  const { businessId } = ctx.plan;
  ctx.plan.statusEvents.push({ businessId, chargerId, connectorId, status, errorCode, info: info ?? null, at: new Date(at), createdAt: new Date(at), updatedAt: new Date(at) });
  const st = ctx.connectorState.get(connectorId)!;
  st.lastStatus = status;
  st.lastAt = at;
  st.errorCode = errorCode;
}

interface Fault {
  chargerId: string;
  connectorNumber: number;
  code: ChargePointErrorCode;
  at: number;
}

/** The days before today, lane by lane: sessions within opening hours and a rare fault. Returns the faults. */
function planHistory(ctx: DemoContext, demoRates: DemoRates, lanes: Lane[], idTags: string[]): Fault[] {
  const { rnd, ids, t0 } = ctx;
  const faults: Fault[] = [];
  for (let d = DEMO_HISTORY_DAYS; d >= 1; d--) {
    const dayBase = t0 - d * DAY;
    const weekday = isoWeekday(dayBase);
    const growth = 0.7 + 0.3 * (1 - d / DEMO_HISTORY_DAYS); // the business grows over the quarter
    for (const lane of lanes) {
      const station = STATIONS[lane.stationIndex];
      const hours = openWindow(station.openingHours, weekday);
      if (!hours) continue;
      const [openMin, closeMin] = hours;
      const expected = (lane.dc ? 4.2 : 1.7) * growth * (weekday >= 6 ? 0.8 : 1);
      const n = poissonish(rnd, expected);
      let cursor = Math.max(dayBase + openMin * MINUTE + rnd.int(0, 90) * MINUTE, lane.freeAt + rnd.int(10, 40) * MINUTE);
      for (let i = 0; i < n; i++) {
        cursor += rnd.int(5, lane.dc ? 120 : 200) * MINUTE;
        cursor = Math.floor(cursor / MINUTE) * MINUTE;
        if (cursor > dayBase + (closeMin - 45) * MINUTE) break;

        // A rare fault, cleared before the next car arrives.
        if (rnd.chance(0.012)) {
          const conn = rnd.pick(lane.connectors).row;
          const code = rnd.pick(["GroundFailure", "OverCurrentFailure", "EVCommunicationError", "HighTemperature", "PowerSwitchFailure"] as const);
          emitStatus(ctx, conn.id, lane.chargerId, "Faulted", cursor, code);
          faults.push({ chargerId: lane.chargerId, connectorNumber: conn.connectorId, code, at: cursor });
          cursor += rnd.int(40, 240) * MINUTE;
          emitStatus(ctx, conn.id, lane.chargerId, "Available", cursor);
          cursor += rnd.int(5, 30) * MINUTE;
        }

        const conn = lane.connectors.length === 1 || rnd.chance(0.7) ? lane.connectors[0] : rnd.pick(lane.connectors.slice(1));
        const s = planSession({ rnd, ids, conn, lane, startedAt: cursor, idTag: rnd.pick(idTags), limit: t0 - MINUTE });
        if (!s) break;
        const rateKey = conn.spec.rate;
        finishSession(ctx, s, rateKey ? demoRates.snapshots.get(rateKey)! : null, rateKey ? demoRates.rows.get(rateKey)!.id : null);
        cursor = s.unpluggedAt + rnd.int(3, 25) * MINUTE;
        lane.freeAt = cursor;
      }
    }
  }
  return faults;
}

/** A past session as rows: priced with domain/pricing, its meter samples, statuses and payment. */
function finishSession(ctx: DemoContext, s: PlannedSession, snapshot: RateSnapshot | null, rateId: string | null) {
  const { rnd, t0, plan } = ctx;
  const state = ctx.connectorState.get(s.connector.id)!;
  const meterStart = state.meterWh;
  state.meterWh += s.energyWh;
  const usage = usageFromSession({
    energyWh: s.energyWh,
    startedAt: new Date(s.startedAt),
    chargingEndedAt: new Date(s.chargingEndedAt),
    unpluggedAt: new Date(s.unpluggedAt),
    stoppedAt: new Date(s.stoppedAt),
    timeZone: "America/Argentina/Buenos_Aires",
  });
  const banded = s.invalid || !snapshot ? null : priceSessionByBand(snapshot, { ...usage, readings: s.samples.map((m) => ({ at: new Date(m.at), energyWh: m.energyWh })), isHoliday: isArgentineHoliday });
  const price = banded;
  const daysAgo = (t0 - s.unpluggedAt) / DAY;
  let paymentStatus: NewChargingSession["paymentStatus"] = "NOT_REQUIRED";
  if (price && price.totalCents > 0) {
    const roll = rnd.float();
    paymentStatus = daysAgo < 2 && roll < 0.25 ? "PENDING" : roll < 0.03 ? "FAILED" : "PAID";
  }
  plan.sessions.push({
    id: s.id,
    businessId: plan.businessId,
    stationId: s.lane.stationId,
    chargerId: s.lane.chargerId,
    connectorId: s.connector.id,
    connectorNumber: s.connector.connectorId,
    idTag: s.idTag,
    startedAt: new Date(s.startedAt),
    stoppedAt: new Date(s.stoppedAt),
    chargingEndedAt: new Date(s.chargingEndedAt),
    unpluggedAt: new Date(s.unpluggedAt),
    meterStartWh: meterStart,
    meterStopWh: meterStart + s.energyWh,
    energyWh: s.energyWh,
    // The column counts started minutes; the price counts billed seconds (domain/pricing billedSeconds).
    idleMinutes: Math.ceil(usage.idleMinutes),
    stopReason: s.stopReason,
    status: s.invalid ? "INVALID" : "COMPLETED",
    rateId,
    rateSnapshot: snapshot,
    energyCents: price?.energyCents ?? 0,
    timeCents: price?.timeCents ?? 0,
    sessionFeeCents: price?.sessionFeeCents ?? 0,
    idleCents: price?.idleCents ?? 0,
    subtotalCents: price?.subtotalCents ?? 0,
    vatCents: price?.vatCents ?? 0,
    totalCents: price?.totalCents ?? 0,
    priceBands: banded ? sessionBands(banded) : null,
    paymentStatus,
    createdAt: new Date(s.startedAt),
    updatedAt: new Date(s.unpluggedAt),
  });
  plan.meterSamples.push(...s.samples);

  const cid = s.connector.id;
  emitStatus(ctx, cid, s.lane.chargerId, "Preparing", s.startedAt - MINUTE);
  if (!s.invalid) {
    emitStatus(ctx, cid, s.lane.chargerId, "Charging", s.startedAt);
    if (s.unpluggedAt > s.chargingEndedAt) emitStatus(ctx, cid, s.lane.chargerId, s.stopReason === "EVDisconnected" ? "SuspendedEV" : "Finishing", s.chargingEndedAt);
  }
  emitStatus(ctx, cid, s.lane.chargerId, "Available", s.unpluggedAt);

  if (price && paymentStatus !== "NOT_REQUIRED" && paymentStatus !== "PENDING") planPayment(ctx, s, price.totalCents, paymentStatus);
}

/** The provider's payment for a settled session: approved when paid, rejected when it failed. */
function planPayment(ctx: DemoContext, s: PlannedSession, amountCents: number, paymentStatus: "PAID" | "FAILED") {
  const { rnd, plan } = ctx;
  const provider = rnd.chance(0.8) ? "MERCADOPAGO" : "PAGOS360";
  const at = new Date(s.unpluggedAt + rnd.int(1, 4) * MINUTE);
  plan.payments.push({
    businessId: plan.businessId,
    sessionId: s.id,
    provider,
    amountCents,
    currency: "ARS",
    status: paymentStatus === "PAID" ? "APPROVED" : "REJECTED",
    // Both providers number their payments (Pagos360 its payment requests).
    externalId: provider === "MERCADOPAGO" ? String(71_000_000_000 + plan.payments.length * 7919) : String(52_000_000 + plan.payments.length + 1),
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * Minutes the live state may reach back: it is relative to `now` but never reaches back past
 * the start of the day, so it cannot overlap the history.
 */
function minutesSinceDayStart(ctx: DemoContext): number {
  return Math.max(0, Math.floor((ctx.nowMs - ctx.t0) / MINUTE) - 1);
}

/** A connector of an installed charger, found by the charger's OCPP identity and the connector's number. */
function findLiveConnector(ctx: DemoContext, lanes: Lane[], identity: string, connectorNumber: number) {
  const { plan } = ctx;
  const chargerIndex = plan.chargers.findIndex((c) => c.ocppIdentity === identity);
  const charger = plan.chargers[chargerIndex];
  const conn = plan.connectors.find((c) => c.chargerId === charger.id && c.connectorId === connectorNumber)!;
  const lane = lanes.find((l) => l.connectors.some((x) => x.row.id === conn.id))!;
  return { charger, conn, lane, spec: lane.connectors.find((x) => x.row.id === conn.id)!.spec };
}

type LiveConnector = ReturnType<typeof findLiveConnector>;

/** The sessions charging (or idle) right now, unpriced until they close. */
function planOngoingSessions(ctx: DemoContext, demoRates: DemoRates, lanes: Lane[], idTags: string[]) {
  const { rnd, ids, nowMs, plan } = ctx;
  const sinceDayStart = minutesSinceDayStart(ctx);
  const ongoing = [
    { identity: "ENCH-CABA-03", connector: 1, minutes: 18, idle: 0 },
    { identity: "ENCH-NORD-01", connector: 1, minutes: 75, idle: 0 },
    { identity: "ENCH-CBA-01", connector: 1, minutes: 12, idle: 0 },
    { identity: "ENCH-CBA-03", connector: 2, minutes: 150, idle: 25 },
  ];
  for (const o of ongoing) {
    const { charger, conn, lane, spec } = findLiveConnector(ctx, lanes, o.identity, o.connector);
    const minutes = Math.min(o.minutes, sinceDayStart);
    if (minutes < 3) continue;
    const startedAt = nowMs - minutes * MINUTE;
    const idle = Math.min(o.idle, Math.floor(minutes / 2));
    const chargingEnd = nowMs - idle * MINUTE;
    const powerKw = effectivePowerKw(rnd, spec);
    const energyWh = Math.round(((chargingEnd - startedAt) / HOUR) * powerKw * 1000);
    const state = ctx.connectorState.get(conn.id)!;
    const meterStart = state.meterWh;
    state.meterWh += energyWh;
    const rateKey = spec.rate;
    const id = ids.uuid();
    plan.sessions.push({
      id,
      businessId: plan.businessId,
      stationId: lane.stationId,
      chargerId: charger.id,
      connectorId: conn.id,
      connectorNumber: conn.connectorId,
      idTag: rnd.pick(idTags),
      startedAt: new Date(startedAt),
      stoppedAt: null,
      chargingEndedAt: idle > 0 ? new Date(chargingEnd) : null,
      unpluggedAt: null,
      meterStartWh: meterStart,
      meterStopWh: null,
      energyWh,
      idleMinutes: idle,
      stopReason: null,
      status: idle > 0 ? "IDLE" : "ACTIVE",
      rateId: rateKey ? demoRates.rows.get(rateKey)!.id : null,
      rateSnapshot: rateKey ? demoRates.snapshots.get(rateKey)! : null,
      // Priced when it closes.
      energyCents: 0,
      timeCents: 0,
      sessionFeeCents: 0,
      idleCents: 0,
      subtotalCents: 0,
      vatCents: 0,
      totalCents: 0,
      priceBands: null,
      paymentStatus: "PENDING",
      createdAt: new Date(startedAt),
      updatedAt: new Date(nowMs - MINUTE),
    });
    plan.meterSamples.push(...meterCurve(rnd, id, startedAt, chargingEnd, energyWh, spec.power === "DC"));
    emitStatus(ctx, conn.id, charger.id, "Preparing", startedAt - MINUTE);
    emitStatus(ctx, conn.id, charger.id, "Charging", startedAt);
    if (idle > 0) emitStatus(ctx, conn.id, charger.id, "SuspendedEV", chargingEnd);
  }
}

/** What is wrong right now, for the notifications that report it. */
interface Incidents {
  faulted: LiveConnector;
  faultAt: number;
  offline: LiveConnector;
  offlineAt: number;
}

/** A faulted connector and an offline charger, each with its notification (planned later). */
function planCurrentIncidents(ctx: DemoContext, lanes: Lane[]): Incidents {
  const { nowMs } = ctx;
  const sinceDayStart = minutesSinceDayStart(ctx);
  const faulted = findLiveConnector(ctx, lanes, "ENCH-MZA-01", 2);
  const faultAt = nowMs - Math.min(95, sinceDayStart) * MINUTE;
  emitStatus(ctx, faulted.conn.id, faulted.charger.id, "Faulted", faultAt, "GroundFailure", "Diferencial actuado");
  const offline = findLiveConnector(ctx, lanes, DEMO_OFFLINE_IDENTITY, 1);
  offline.charger.online = false;
  const offlineAt = nowMs - Math.min(190, sinceDayStart) * MINUTE;
  offline.charger.lastHeartbeatAt = new Date(offlineAt);
  return { faulted, faultAt, offline, offlineAt };
}

/** Connectors end in the state their history left them in. */
function settleConnectors(ctx: DemoContext) {
  for (const c of ctx.plan.connectors) {
    const st = ctx.connectorState.get(c.id)!;
    c.status = st.lastStatus;
    c.statusAt = new Date(st.lastAt);
    c.errorCode = st.errorCode;
    c.updatedAt = new Date(Math.max(st.lastAt, (c.createdAt as Date).getTime()));
  }
}

/** The notifications the history and the current incidents would have sent, oldest first. */
function planNotifications(ctx: DemoContext, chargerNames: Map<string, string>, faults: Fault[], incidents: Incidents) {
  const { t0, plan } = ctx;
  const { faulted, faultAt, offline, offlineAt } = incidents;
  notify(ctx, t0 - 119 * DAY, "BUSINESS_APPROVED", "¡Tu empresa fue aprobada!", `${DEMO_BUSINESS_NAME} ya puede publicar estaciones y cobrar cargas.`, "/home");
  for (const f of faults.slice(-8)) {
    const name = chargerNames.get(f.chargerId)!;
    notify(ctx, f.at, "CHARGER_FAULTED", "Cargador en falla", `${name}: el conector ${f.connectorNumber} informó «${CHARGE_POINT_ERROR_LABELS[f.code]}».`, `/charger/edit/${f.chargerId}`);
  }
  // Weekly summaries, every Monday morning, computed from the sessions above.
  for (let d = DEMO_HISTORY_DAYS - 7; d >= 1; d--) {
    const day = t0 - d * DAY;
    if (isoWeekday(day) !== 1) continue;
    const week = plan.sessions.filter((s) => s.status === "COMPLETED" && (s.startedAt as Date).getTime() >= day - 7 * DAY && (s.startedAt as Date).getTime() < day);
    const kwh = week.reduce((a, s) => a + (s.energyWh ?? 0), 0) / 1000;
    const revenue = week.reduce((a, s) => a + (s.totalCents ?? 0), 0);
    notify(
      ctx,
      day + 8 * HOUR,
      "SYSTEM",
      "Resumen semanal",
      `La semana pasada hubo ${week.length} cargas y se entregaron ${kwh.toLocaleString("es-AR", { maximumFractionDigits: 0 })} kWh. Facturación: ${formatArs(revenue)}.`,
      "/activity",
    );
  }
  const recent = plan.sessions.filter((s) => s.status === "COMPLETED" && (s.startedAt as Date).getTime() > t0 - 10 * DAY);
  for (const s of recent.filter((x) => (x.idleCents ?? 0) >= 150_000).slice(-4)) {
    notify(
      ctx,
      (s.unpluggedAt as Date).getTime() + 2 * MINUTE,
      "IDLE_FEE_APPLIED",
      // One term for the same charge everywhere: the rates, the sessions and the spec say "inactividad".
      "Penalidad por inactividad",
      `Se cobró ${formatArs(s.idleCents ?? 0)} por ${s.idleMinutes} minutos de inactividad (conectado sin cargar) en ${chargerNames.get(s.chargerId!)}.`,
      "/activity",
    );
  }
  for (const s of recent.filter((x) => x.paymentStatus === "FAILED").slice(-5)) {
    notify(ctx, (s.unpluggedAt as Date).getTime() + 5 * MINUTE, "PAYMENT_FAILED", "Pago rechazado", `El pago de ${formatArs(s.totalCents ?? 0)} de una carga en ${chargerNames.get(s.chargerId!)} fue rechazado.`, "/payment");
  }
  notify(ctx, faultAt + MINUTE, "CHARGER_FAULTED", "Cargador en falla", `${faulted.charger.name}: el conector 2 informó «${CHARGE_POINT_ERROR_LABELS.GroundFailure}».`, `/charger/edit/${faulted.charger.id}`);
  notify(ctx, offlineAt + 10 * MINUTE, "CHARGER_OFFLINE", "Cargador sin conexión", `${offline.charger.name} no envía señales desde hace más de 10 minutos.`, `/charger/edit/${offline.charger.id}`);
  plan.notifications.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
}

/** A notification; those older than three days were read some minutes to hours after they arrived. */
function notify(ctx: DemoContext, at: number, type: NewNotification["type"], title: string, body: string, link: string | null) {
  const { rnd, ids, t0, plan } = ctx;
  const unread = at > t0 - 3 * DAY;
  plan.notifications.push({
    id: ids.uuid(),
    businessId: plan.businessId,
    type,
    title,
    body,
    link,
    readAt: unread ? null : new Date(at + rnd.int(10, 600) * MINUTE),
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });
}

// ---------------------------------------------------------------------------------------------
// Session shapes

interface PlannedSession {
  id: string;
  lane: Lane;
  connector: PlannedConnector;
  idTag: string;
  startedAt: number;
  chargingEndedAt: number;
  stoppedAt: number;
  unpluggedAt: number;
  energyWh: number;
  stopReason: string;
  invalid: boolean;
  samples: NewMeterSample[];
}

function planSession(args: {
  rnd: Random;
  ids: Random;
  conn: { row: PlannedConnector; spec: ConnectorSpec };
  lane: Lane;
  startedAt: number;
  idTag: string;
  /** Everything must be over before this instant. */
  limit: number;
}): PlannedSession | null {
  const { rnd, ids, conn, lane, startedAt, idTag, limit } = args;
  const id = ids.uuid();
  const dc = conn.spec.power === "DC";

  // 2 % never start charging (card rejected by the car, cable not seated…).
  if (rnd.chance(0.02)) {
    const unplug = startedAt + rnd.int(1, 4) * MINUTE;
    if (unplug >= limit) return null;
    return { id, lane, connector: conn.row, idTag, startedAt, chargingEndedAt: startedAt, stoppedAt: unplug, unpluggedAt: unplug, energyWh: 0, stopReason: "EVDisconnected", invalid: true, samples: [] };
  }

  const powerKw = effectivePowerKw(rnd, conn.spec);
  const energyKwh = dc ? rnd.between(12, 48) : rnd.between(5, 38);
  const chargingMinutes = Math.max(6, Math.min(dc ? 75 : 8 * 60, Math.round((energyKwh / powerKw) * 60)));
  const chargingEndedAt = startedAt + chargingMinutes * MINUTE;
  const energyWh = Math.round((chargingMinutes / 60) * powerKw * 1000 * (dc ? 0.82 : 0.96));

  // Idle: fast-charge drivers wait by the car; AC drivers often don't.
  const r = rnd.float();
  let idle: number;
  if (dc) idle = r < 0.8 ? rnd.int(0, 4) : r < 0.95 ? rnd.int(5, 25) : rnd.int(25, 70);
  else idle = r < 0.4 ? rnd.int(0, 10) : r < 0.75 ? rnd.int(10, 45) : r < 0.95 ? rnd.int(45, 150) : rnd.int(150, 600);
  let unpluggedAt = chargingEndedAt + idle * MINUTE;
  if (chargingEndedAt >= limit) return null;
  if (unpluggedAt >= limit) unpluggedAt = limit - MINUTE * rnd.int(1, 20);
  if (unpluggedAt < chargingEndedAt) unpluggedAt = chargingEndedAt;

  const reason = rnd.float();
  const stopReason = reason < 0.75 ? "EVDisconnected" : reason < 0.92 ? "Local" : "Remote";
  // Local/Remote stop the transaction first; the car stays plugged until it leaves.
  const stoppedAt = stopReason === "EVDisconnected" ? unpluggedAt : Math.min(unpluggedAt, chargingEndedAt + rnd.int(0, 2) * MINUTE);

  return {
    id,
    lane,
    connector: conn.row,
    idTag,
    startedAt,
    chargingEndedAt,
    stoppedAt,
    unpluggedAt,
    energyWh,
    stopReason,
    invalid: false,
    samples: meterCurve(rnd, id, startedAt, chargingEndedAt, energyWh, dc),
  };
}

/** What the car actually draws: its on-board charger or battery limits the station. */
function effectivePowerKw(rnd: Random, spec: ConnectorSpec): number {
  if (spec.power === "DC") return Math.min(spec.kw, rnd.pick([50, 75, 100, 130, 150])) * rnd.between(0.62, 0.9);
  const onboard = spec.power === "AC_1_PHASE" ? 7.4 : rnd.pick([7.4, 11, 11, 22]);
  return Math.min(spec.kw, onboard) * rnd.between(0.86, 0.98);
}

/**
 * MeterValues every 5 (DC) or 10 (AC) minutes plus one at the end of charging. Power is flat
 * and then tapers (DC above ~80 % SoC, AC at the very end); energy is its integral, scaled so
 * the last sample equals the session's energy exactly.
 */
function meterCurve(rnd: Random, sessionId: string, start: number, end: number, energyWh: number, dc: boolean): NewMeterSample[] {
  const step = (dc ? 5 : 10) * MINUTE;
  const knee = dc ? 0.62 : 0.9;
  const floor = dc ? 0.35 : 0.6;
  const p = (x: number) => (x < knee ? 1 : 1 - ((1 - floor) * (x - knee)) / (1 - knee));
  const P = (x: number) => (x < knee ? x : knee + (x - knee) - ((1 - floor) * (x - knee) ** 2) / (2 * (1 - knee)));
  const total = P(1);
  const socStart = dc ? rnd.int(8, 45) : null;
  const socEnd = socStart === null ? null : Math.min(97, socStart + rnd.int(35, 55));
  const span = end - start;
  const samples: NewMeterSample[] = [];
  if (span <= 0) return samples;
  const meanPowerW = energyWh / (span / HOUR);
  const times: number[] = [];
  for (let t = start + step; t < end; t += step) times.push(t);
  times.push(end);
  for (const t of times) {
    const x = (t - start) / span;
    const frac = P(x) / total;
    const at = new Date(t);
    samples.push({
      sessionId,
      at,
      energyWh: Math.round(energyWh * frac),
      powerW: Math.round(meanPowerW * (p(x) / total) * (1 + (rnd.float() - 0.5) * 0.04)),
      soc: socStart === null || socEnd === null ? null : Math.round(socStart + (socEnd - socStart) * frac),
      createdAt: at,
      updatedAt: at,
    });
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** ISO weekday (1 = Monday) of an instant in Argentina. */
function isoWeekday(t: number): number {
  const d = new Date(t - AR_OFFSET).getUTCDay();
  return d === 0 ? 7 : d;
}

/** [open, close] minutes of a weekday from opening hours; null when closed. */
function openWindow(hours: OpeningHours, weekday: number): [number, number] | null {
  if (hours.twentyFourSeven) return [6 * 60, 23 * 60 + 30];
  const period = hours.periods.find((p) => p.weekday === weekday);
  if (!period) return null;
  const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return [toMin(period.begin), toMin(period.end)];
}

/** A small count around `mean` (sum of Bernoulli trials; deterministic with the PRNG). */
function poissonish(rnd: Random, mean: number): number {
  const trials = Math.ceil(mean * 2);
  let n = 0;
  for (let i = 0; i < trials; i++) if (rnd.chance(mean / trials)) n++;
  return n;
}

function hex8(rnd: Random): string {
  let s = "";
  for (let i = 0; i < 8; i++) s += "0123456789ABCDEF"[rnd.int(0, 15)];
  return s;
}
