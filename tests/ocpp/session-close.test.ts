// Closing a session the charger never stopped ("when chargers misbehave"):
// POST /Business/Activity/{id}/Close with a reason. The charger is asked to stop when it is
// connected; the session is priced up to its last meter value; the reason is audited.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, businessMembers, chargingSessions } from "#db/schema";
import { priceSession } from "#domain/pricing";
import { expectProblem, expectStatus, mintToken } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();

describe.each(testBackends())("closing a stuck session ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  beforeAll(async () => {
    h = await openOcppHarness(backend);
    f = await createFixture(h, `close-${backend.name}`);
  });
  afterAll(() => h.close());

  const session = async (id: string) => (await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, id)))[0];
  const close = (id: string, body: unknown, token = f.tenant.token) => h.call("POST", `/Business/Activity/${id}/Close`, { token, body });

  /** A session that started 3 h ago and whose last reading was 2 h 40 min ago (5 kWh in 20 min). */
  async function stuckSession(cli: ReturnType<typeof chargerClient>, connectorId: number) {
    const t0 = Date.now() - 180 * MIN;
    const start = (await cli.call("StartTransaction", { connectorId, idTag: "RFID-77", meterStart: 10_000, timestamp: iso(t0) })) as { transactionId: number };
    await cli.call("MeterValues", { connectorId, transactionId: start.transactionId, meterValue: [{ timestamp: iso(t0 + 20 * MIN), sampledValue: [{ value: "15000" }] }] });
    const [row] = await h.db.select().from(chargingSessions).where(and(eq(chargingSessions.chargerId, f.chargerId), eq(chargingSessions.transactionId, start.transactionId)));
    return { id: row.id, t0 };
  }

  it("asks a connected charger to stop, then prices the session up to its last reading and audits the reason", async () => {
    const cli = chargerClient(h, f);
    const stops: unknown[] = [];
    // A charger that accepts the stop but never reports it: the reason this feature exists.
    cli.handle("RemoteStopTransaction", async ({ params }) => {
      stops.push(params);
      return { status: "Accepted" };
    });
    // The close asks the charger only when it is online: wait for this socket's online mark.
    const since = new Date();
    await cli.connect();
    await onlineSince(h, f.chargerId, since);
    try {
      await cli.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra AC" });
      const { id, t0 } = await stuckSession(cli, 1);
      const before = await session(id);
      const answer = await expectStatus(await close(id, { reason: "El cargador quedó colgado tras un corte de luz." }), 200);
      expect(answer).toMatchObject({ status: "COMPLETED", closedBy: "operator", remoteStop: "accepted", stopReasonLabel: "Cerrada por el operador", energyKwh: 5 });
      expect(stops).toEqual([{ transactionId: before.transactionId }]);

      const closed = await session(id);
      expect(closed).toMatchObject({ status: "COMPLETED", energyWh: 5_000, stopReason: "OperatorClosed", idleMinutes: 0 });
      // Stopped, charging ended and unplugged at the last reading — not at the time of the close.
      expect(closed.stoppedAt?.getTime()).toBe(t0 + 20 * MIN);
      expect(closed.unpluggedAt?.getTime()).toBe(t0 + 20 * MIN);
      const expected = priceSession(before.rateSnapshot!, { energyWh: 5_000, chargingMinutes: 20, idleMinutes: 0, idleStartedAt: new Date(t0 + 20 * MIN) });
      expect(closed.totalCents).toBe(expected.totalCents);

      const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "session.close")));
      expect(entry.resourceId).toBe(id);
      expect(JSON.stringify(entry.changes)).toContain("El cargador quedó colgado tras un corte de luz.");
      expect(JSON.stringify(entry.changes)).toContain("accepted");

      // A second close: already closed.
      expect((await expectProblem(await close(id, { reason: "Otra vez, por las dudas." }), 409)).title).toBe(
        "La carga ya está cerrada: el cargador la terminó o alguien la cerró antes.",
      );
    } finally {
      await cli.close();
    }
  });

  it("closes without asking when the charger is offline; a charger that stops it when asked keeps its own data", async () => {
    const cli = chargerClient(h, f);
    await cli.connect();
    const { id: offlineId } = await stuckSession(cli, 2);
    await cli.close();
    await eventually(() => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean }>), (c) => !c.online);
    const offline = await expectStatus(await close(offlineId, { reason: "Cargador sin conexión desde ayer." }), 200);
    expect(offline).toMatchObject({ closedBy: "operator", remoteStop: "offline", status: "COMPLETED", energyKwh: 5 });

    // Connected again, this charger obeys: its StopTransaction arrives before the close.
    const good = chargerClient(h, f);
    let txId = 0;
    good.handle("RemoteStopTransaction", async ({ params }) => {
      txId = (params as { transactionId: number }).transactionId;
      setTimeout(() => void good.call("StopTransaction", { transactionId: txId, meterStop: 16_000, timestamp: iso(Date.now()), reason: "Remote" }), 0);
      return { status: "Accepted" };
    });
    const since = new Date();
    await good.connect();
    await onlineSince(h, f.chargerId, since);
    try {
      await good.call("StatusNotification", { connectorId: 2, status: "Available", errorCode: "NoError" });
      const { id } = await stuckSession(good, 2);
      await good.call("StatusNotification", { connectorId: 2, status: "Charging", errorCode: "NoError" });
      // The close waits for the charger's own StopTransaction: its reading prices the session.
      const res = await close(id, { reason: "Prueba con un cargador que obedece." });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { remoteStop: string; closedBy: string };
      // The charger stopped it (its reading and reason stand); the vehicle still plugged in, the
      // operator's close ends the wait for the unplug at that stop: no idle time charged.
      expect(body).toMatchObject({ remoteStop: "accepted", status: "COMPLETED" });
      expect(await session(id)).toMatchObject({ meterStopWh: 16_000, energyWh: 6_000, stopReason: "Remote", idleMinutes: 0 });
    } finally {
      await good.close();
    }
  });

  it("validates the reason, hides other companies' sessions and refuses roles without session.close", async () => {
    const cli = chargerClient(h, f);
    await cli.connect();
    const { id } = await stuckSession(cli, 1);
    await cli.close();
    const missing = await expectProblem(await close(id, {}), 422);
    expect(missing.errors?.reason?.[0]).toBe("Contá por qué cerrás la carga.");
    const short = await expectProblem(await close(id, { reason: "ya" }), 422);
    expect(short.errors?.reason?.[0]).toBe("Contá por qué cerrás la carga (al menos 5 caracteres).");

    const other = await createFixture(h, `close-other-${backend.name}`);
    await expectProblem(await close(id, { reason: "No es mi empresa." }, other.tenant.token), 404);

    const readerUid = `close-reader-${backend.name}`;
    await h.db.insert(businessMembers).values({ businessId: f.tenant.businessId, firebaseUid: readerUid, email: `${readerUid}@example.com`, role: "BILLING" });
    const refused = await expectProblem(await close(id, { reason: "Facturación no puede." }, mintToken(readerUid)), 403);
    expect(refused.title).toContain("cerrar cargas que el cargador no cerró");
    expect((await session(id)).status).toBe("ACTIVE");
  });
});
