// Cross-tenant matrix: every resource × another business's id answers 404 (or a 422 field
// error when the id is a reference inside a body) and never leaks or touches that data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chargers, chargingSessions, notifications, payments, reservations } from "#db/schema";
import {
  chargerInput,
  createTenant,
  expectProblem,
  expectStatus,
  imageForm,
  openHarness,
  PNG_1x1,
  rateInput,
  stationInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

describe.each(testBackends())("tenant isolation ($name)", (backend) => {
  let h: Harness;
  let a: Tenant;
  let b: Tenant;
  const B: Record<string, string> = {};
  let bPasswordHash: string | null;

  beforeAll(async () => {
    h = await openHarness(backend);
    a = await createTenant(h, "tenant-a");
    b = await createTenant(h, "tenant-b");
    // B owns one of everything.
    B.station = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: b.token, body: stationInput({ name: "Secreta B" }) }), 201)).id;
    B.rate = (await expectStatus(await h.call("POST", "/Business/Fees", { token: b.token, body: rateInput({ name: "Tarifa B" }) }), 201)).id;
    const charger = await expectStatus(
      await h.call("POST", "/Business/Charger", {
        token: b.token,
        body: chargerInput({
          name: "Cargador B",
          stationId: B.station,
          connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: B.rate }],
        }),
      }),
      201,
    );
    B.charger = charger.id;
    B.connector = charger.connectors[0].id;
    const [session] = await h.db
      .insert(chargingSessions)
      .values({ businessId: b.businessId, stationId: B.station, chargerId: B.charger, connectorId: B.connector, connectorNumber: 1, idTag: "B-TAG", startedAt: new Date(), meterStartWh: 0, energyWh: 1234, status: "COMPLETED", stoppedAt: new Date() })
      .returning();
    B.session = session.id;
    const [reservation] = await h.db
      .insert(reservations)
      .values({ businessId: b.businessId, stationId: B.station, chargerId: B.charger, connectorId: B.connector, connectorNumber: 1, idTag: "B-TAG", expiresAt: new Date(Date.now() + 3_600_000) })
      .returning();
    B.reservation = reservation.id;
    const [note] = await h.db.insert(notifications).values({ businessId: b.businessId, type: "SYSTEM", title: "Solo para B", body: "privado" }).returning();
    B.notification = note.id;
    await h.db.insert(payments).values({ businessId: b.businessId, sessionId: B.session, provider: "MERCADOPAGO", amountCents: 4321, status: "APPROVED" });
    B.image = (await expectStatus(await h.call("PATCH", "/Business/Images/ProfilePicture", { token: b.token, body: imageForm(PNG_1x1) }), 200)).photoUrl;
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: b.token, body: { publicKey: "APP_USR-bbbbbbbb-public", accessToken: "APP_USR-bbbbbbbbbbbbbbbb-secret-7777" } }), 200);
    [{ ocppPasswordHash: bPasswordHash }] = await h.db.select({ ocppPasswordHash: chargers.ocppPasswordHash }).from(chargers).where(eq(chargers.id, B.charger));
  });
  afterAll(() => h?.close());

  const matrix: [string, string, (B: Record<string, string>) => string, unknown?][] = [
    ["GET", "station", (x) => `/Business/ChargingStation/${x.station}`],
    ["PUT", "station", (x) => `/Business/ChargingStation/${x.station}`, stationInput({ name: "Robada" })],
    ["DELETE", "station", (x) => `/Business/ChargingStation/${x.station}`],
    ["GET", "charger", (x) => `/Business/Charger/${x.charger}`],
    ["PUT", "charger", (x) => `/Business/Charger/${x.charger}`, chargerInput({ name: "Robado" })],
    ["DELETE", "charger", (x) => `/Business/Charger/${x.charger}`],
    ["POST", "charger password", (x) => `/Business/Charger/${x.charger}/RotatePassword`],
    ["GET", "rate", (x) => `/Business/Fees/${x.rate}`],
    ["PUT", "rate", (x) => `/Business/Fees/${x.rate}`, rateInput({ name: "Robada" })],
    ["DELETE", "rate", (x) => `/Business/Fees/${x.rate}`],
    ["GET", "session", (x) => `/Business/Activity/${x.session}`],
    ["POST", "notification", (x) => `/Business/Notification/${x.notification}/Read`],
    ["GET", "reservation", (x) => `/Business/Reservation/${x.reservation}`],
    ["DELETE", "reservation", (x) => `/Business/Reservation/${x.reservation}`],
  ];

  it.each(matrix)("%s %s of another business → 404, nothing leaked", async (method, _what, path, body) => {
    const res = await h.call(method, path(B), { token: a.token, body });
    const text = JSON.stringify(await expectProblem(res, 404));
    for (const secret of ["Secreta B", "Tarifa B", "Cargador B", "B-TAG", "Solo para B"]) expect(text).not.toContain(secret);
  });

  it("left B's data untouched", async () => {
    const station = await expectStatus(await h.call("GET", `/Business/ChargingStation/${B.station}`, { token: b.token }), 200);
    expect(station.name).toBe("Secreta B");
    const charger = await expectStatus(await h.call("GET", `/Business/Charger/${B.charger}`, { token: b.token }), 200);
    expect(charger.name).toBe("Cargador B");
    const [{ ocppPasswordHash }] = await h.db.select({ ocppPasswordHash: chargers.ocppPasswordHash }).from(chargers).where(eq(chargers.id, B.charger));
    expect(ocppPasswordHash).toBe(bPasswordHash);
    expect((await expectStatus(await h.call("GET", `/Business/Fees/${B.rate}`, { token: b.token }), 200)).name).toBe("Tarifa B");
    const [note] = await h.db.select().from(notifications).where(eq(notifications.id, B.notification));
    expect(note.readAt).toBeNull();
  });

  it("another business's image cannot be removed (404)", async () => {
    await expectProblem(await h.call("DELETE", "/Business/Images/ProfilePicture", { token: a.token, body: { imageUrl: B.image } }), 404);
    expect((await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: b.token }), 200)).photoUrl).toBe(B.image);
  });

  it("another business's image cannot become my photo (422)", async () => {
    // A does not own those bytes, so it cannot point its profile or a station at them.
    const p = await expectProblem(await h.call("PATCH", "/Business/BusinessUser/Update", { token: a.token, body: { photoUrl: B.image } }), 422);
    expect(p.errors?.photoUrl).toBeDefined();
    const s = await expectProblem(await h.call("POST", "/Business/ChargingStation", { token: a.token, body: stationInput({ photoUrl: B.image }) }), 422);
    expect(s.errors?.photoUrl).toBeDefined();
  });

  it("references to another business's ids inside a body are field errors (422)", async () => {
    const charger = await expectProblem(
      await h.call("POST", "/Business/Charger", {
        token: a.token,
        body: chargerInput({ stationId: B.station, connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: B.rate }] }),
      }),
      422,
    );
    expect(charger.errors).toEqual({ stationId: ["La estación no existe."], "connectors[0].rateId": ["La tarifa no existe."] });

    const mine = await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: a.token, body: stationInput() }), 201);
    const assignTheirs = await expectProblem(await h.call("POST", "/Business/Charger/Assign", { token: a.token, body: { stationId: mine.id, chargerIds: [B.charger] } }), 422);
    expect(assignTheirs.errors).toEqual({ chargerIds: ["Uno o más cargadores no existen."] });
    const assignToTheirs = await expectProblem(await h.call("POST", "/Business/Charger/Assign", { token: a.token, body: { stationId: B.station, chargerIds: [B.charger] } }), 422);
    expect(assignToTheirs.errors).toEqual({ stationId: ["La estación no existe."] });
    const [row] = await h.db.select({ stationId: chargers.stationId }).from(chargers).where(eq(chargers.id, B.charger));
    expect(row.stationId).toBe(B.station);
  });

  it("lists, filters, totals and KPIs show only the caller's data", async () => {
    const get = async (path: string) => expectStatus(await h.call("GET", path, { token: a.token }), 200);
    expect((await get("/Business/ChargingStation")).items.every((s: { name: string }) => s.name !== "Secreta B")).toBe(true);
    expect((await get("/Business/Charger")).total).toBe(0);
    expect((await get(`/Business/Charger?stationId=${B.station}`)).total).toBe(0);
    expect((await get("/Business/Fees")).total).toBe(0);
    expect((await get("/Business/Activity")).total).toBe(0);
    expect((await get(`/Business/Activity?stationId=${B.station}&chargerId=${B.charger}`)).total).toBe(0);
    expect((await get("/Business/Notification")).total).toBe(0);
    expect((await get(`/Business/Reservation?stationId=${B.station}`)).total).toBe(0);
    expect((await get("/Business/Reservation")).total).toBe(0);
    expect((await get("/Business/Notification/UnreadCount")).unread).toBe(0);
    expect(await get(`/Business/Payments?sessionId=${B.session}`)).toMatchObject({ total: 0, totals: { count: 0, amountCents: 0 } });
    expect(await get("/MercadoPago/BusinessUser")).toMatchObject({ connected: false, last4: null });
    const dash = await get("/Business/Dashboard");
    expect(dash).toMatchObject({ sessions: 0, energyKwh: 0, chargersTotal: 0, connectorsTotal: 0 });
    expect((await get("/Business/Graphic?series=topStations")).points).toEqual([]);
    const csv = await (await h.call("GET", "/Business/Activity/Export.csv", { token: a.token })).text();
    expect(csv).not.toContain("B-TAG");
    // Mark-all-read and disconnect act on the caller's rows only.
    await expectStatus(await h.call("POST", "/Business/Notification/ReadAll", { token: a.token }), 200);
    await expectStatus(await h.call("DELETE", "/MercadoPago/BusinessUser", { token: a.token }), 200);
    expect((await expectStatus(await h.call("GET", "/Business/Notification/UnreadCount", { token: b.token }), 200)).unread).toBe(1);
    expect((await expectStatus(await h.call("GET", "/MercadoPago/BusinessUser", { token: b.token }), 200)).connected).toBe(true);
  });
});
