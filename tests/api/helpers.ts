// Shared harness of the API tests: a real database from testBackends(), the API called
// in-process (api.fetch), a fake verifyToken reading tokens the tests mint, and factories.
import { eq } from "drizzle-orm";
import type { Hono } from "hono";
import { createApi, type ApiDeps, type TokenClaims } from "#api/app";
import type { AppEnv } from "#api/env";
import type { Database, Db } from "#db/client";
import { businessUsers, type NewChargingSession } from "#db/schema";
import { seedCatalogs } from "#db/seed/catalogs";
import { cuitCheckDigit } from "#domain/cuit";
import { createKeyRing } from "#infra/crypto";
import { disabledMailer } from "#infra/mail";
import { createDriverPayments } from "../../payments";
import type { TestBackend } from "../setup/db";

export { testBackends } from "../setup/db";

export const TEST_KEYS = ["a".repeat(64), "b".repeat(64)];

/** `test:<uid>:<email>:<verified>` — what the fake verifier accepts. */
export function mintToken(uid: string, opts: { email?: string; verified?: boolean } = {}): string {
  return `test:${uid}:${opts.email ?? `${uid}@example.com`}:${opts.verified ?? true}`;
}

export const fakeVerifyToken = async (idToken: string): Promise<TokenClaims> => {
  const m = /^test:([^:]+):([^:]*):(true|false)$/.exec(idToken);
  if (!m) throw Object.assign(new Error("Decoding Firebase ID token failed."), { code: "auth/argument-error" });
  return { uid: m[1], email: m[2] || undefined, email_verified: m[3] === "true" };
};

/** What a test gives createApi: its deps, the driver payments service optional. */
export type TestApiDeps = Omit<ApiDeps, "driverPayments"> & Partial<Pick<ApiDeps, "driverPayments">>;

const warnOnlyLogger = { info: () => {}, warn: (obj: object, msg?: string) => console.warn(msg ?? "", obj), error: (obj: object, msg?: string) => console.error(msg ?? "", obj) };

/**
 * The API under test, with the driver payments service it requires: the test's own, else one
 * built from the same database, keys, logger, mailer, OCPP gateway and clock.
 */
export function createTestApi(deps: TestApiDeps): Hono<AppEnv> {
  const driverPayments =
    deps.driverPayments ??
    createDriverPayments({
      db: deps.db,
      keyRing: createKeyRing(deps.encryptionKeys),
      logger: deps.logger ?? warnOnlyLogger,
      mailer: deps.mailer ?? disabledMailer,
      appName: deps.appName ?? "Enchufá",
      ocpp: deps.ocpp,
      sendPush: deps.sendPush,
      invoicing: deps.invoicing,
      now: deps.now,
    });
  return createApi({ ...deps, driverPayments });
}

export interface LogEntry {
  level: "info" | "warn" | "error";
  obj: object;
  msg?: string;
}

export interface Harness {
  database: Database;
  db: Db;
  api: Hono<AppEnv>;
  logs: LogEntry[];
  /** Calls the API in-process. `body` objects are sent as JSON. */
  call(method: string, path: string, init?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

export async function openHarness(backend: TestBackend, deps: Partial<TestApiDeps> = {}): Promise<Harness> {
  const database = await backend.open();
  await seedCatalogs(database.db);
  const logs: LogEntry[] = [];
  const logger = {
    info: (obj: object, msg?: string) => logs.push({ level: "info", obj, msg }),
    warn: (obj: object, msg?: string) => logs.push({ level: "warn", obj, msg }),
    error: (obj: object, msg?: string) => logs.push({ level: "error", obj, msg }),
  };
  // The embedded database's watch, as server.ts passes it: reads kept until their tables are written.
  const api = createTestApi({ db: database.db, writes: database.writes, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, logger, publicOrigin: "https://enchufa.test", ...deps });
  return {
    database,
    db: database.db,
    api,
    logs,
    call: (method, path, init = {}) => callApi(api, method, path, init),
    close: () => database.close(),
  };
}

export async function callApi(
  api: Hono<AppEnv>,
  method: string,
  path: string,
  init: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  let body: BodyInit | undefined;
  if (init.body instanceof FormData || typeof init.body === "string") body = init.body;
  else if (init.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.body);
  }
  return api.fetch(new Request(`http://enchufa.test/api${path}`, { method, headers, body }));
}

/** A valid CUIT built from a 10-digit prefix by computing its check digit (none → next number). */
export function validCuit(seed: number, prefix = "30"): string {
  for (let n = seed; ; n++) {
    const first10 = prefix + String(n % 100_000_000).padStart(8, "0");
    const d = cuitCheckDigit(first10);
    if (d !== null) return first10 + d;
  }
}

let cuitSeed = 10_000_000 + Math.floor(Math.random() * 1000) * 1000;
const usedCuits = new Set<string>();

export interface Tenant {
  uid: string;
  token: string;
  businessId: string;
  cuit: string;
}

/** Registers a company through the API and sets its status directly (admin approval). */
export async function createTenant(h: Harness, uid: string, status: "ACTIVE" | "PENDING" | "REJECTED" | "SUSPENDED" = "ACTIVE"): Promise<Tenant> {
  const token = mintToken(uid);
  let cuit = validCuit(cuitSeed++);
  while (usedCuits.has(cuit)) cuit = validCuit(cuitSeed++);
  usedCuits.add(cuit);
  const res = await h.call("POST", "/Account/Business", {
    token,
    body: { businessName: `Empresa ${uid}`, cuit, businessAddress: "Av. Siempreviva 742, CABA", phoneNumber: "+54 11 5555-0000" },
  });
  if (res.status !== 201) throw new Error(`createTenant ${uid}: ${res.status} ${await res.text()}`);
  const [row] = await h.db.update(businessUsers).set({ status }).where(eq(businessUsers.firebaseUid, uid)).returning();
  return { uid, token, businessId: row.id, cuit };
}

export async function expectProblem(res: Response, status: number): Promise<{ type: string; title: string; status: number; detail?: string; errors?: Record<string, string[]> }> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  if (!res.headers.get("content-type")?.startsWith("application/problem+json")) throw new Error(`not problem+json: ${res.headers.get("content-type")}`);
  const body = JSON.parse(text);
  if (body.status !== status || typeof body.title !== "string" || typeof body.type !== "string") throw new Error(`bad problem: ${text}`);
  return body;
}

/** Throws with the body when the status is not the expected one (clear failures). Loosely typed on purpose: tests assert the shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectStatus<T = any>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

// ---- Input factories ------------------------------------------------------------------------

export function stationInput(overrides: Record<string, unknown> = {}) {
  return {
    name: "Estación Palermo",
    address: "Av. Santa Fe 3253",
    city: "Buenos Aires",
    province: "AR-C",
    postalCode: "C1425BGH",
    latitude: -34.5875,
    longitude: -58.4097,
    parkingType: "PARKING_LOT",
    services: ["WIFI", "CAFE"],
    openingHours: { twentyFourSeven: true, periods: [] },
    published: true,
    ...overrides,
  };
}

let identitySeq = 0;
export function chargerInput(overrides: Record<string, unknown> = {}) {
  return {
    name: "Cargador 1",
    ocppIdentity: `TEST-CP-${process.pid}-${Date.now().toString(36)}-${++identitySeq}`,
    model: "Terra AC W22",
    serialNumber: "SN-0001",
    connectors: [
      { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 },
      { connectorId: 2, standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", maxPowerKw: 50 },
    ],
    ...overrides,
  };
}

export function rateInput(overrides: Record<string, unknown> = {}) {
  return {
    name: "Tarifa AC",
    pricePerKwhCents: 35000,
    pricePerMinuteCents: 0,
    sessionFeeCents: 50000,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 15,
    idlePricePerMinuteCents: 2000,
    idleMaxCents: 300000,
    idleActiveFrom: null,
    idleActiveTo: null,
    noShowFeeCents: 100000,
    ...overrides,
  };
}

/** The smallest valid images (real headers, so type sniffing accepts them). */
export const PNG_1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
export const GIF_1x1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
/** JFIF APP0, then a baseline frame header (SOF0) of 1 × 1, one component, then EOI. */
export const JPEG_MIN = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9,
]);

export function imageForm(bytes: Buffer | Uint8Array | string, filename = "image.jpg", type = "image/jpeg", field = "Image"): FormData {
  const form = new FormData();
  form.append(field, new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], { type }), filename);
  return form;
}

/**
 * A charging session on the first connector of `charger`, as the central system writes it
 * (tests insert them directly): COMPLETED, tag "TAG", meter from 0, unless `over` says otherwise.
 */
export function sessionRow(
  at: { businessId: string; stationId: string | null; charger: { id: string; connectors: { id: string }[] } },
  over: Partial<NewChargingSession> = {},
): NewChargingSession {
  return {
    businessId: at.businessId,
    stationId: at.stationId,
    chargerId: at.charger.id,
    connectorId: at.charger.connectors[0].id,
    connectorNumber: 1,
    idTag: "TAG",
    startedAt: new Date(),
    meterStartWh: 0,
    status: "COMPLETED",
    ...over,
  };
}
