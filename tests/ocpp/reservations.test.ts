// Reservations (ADR 0018): POST/GET/DELETE /Business/Reservation against ocpp-rpc
// chargers speaking 1.6 and 2.0.1 — ReserveNow and CancelReservation as each protocol spells them,
// every answer (accepted, refused, not implemented, no answer, offline), a session started by the
// reserving tag using the reservation, and the rate's no-show fee charged when one expires unused
// (a session in Actividad, a payment to collect in Pagos).
import { and, eq } from "drizzle-orm";
import type { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, chargingSessions, connectors, paymentAccounts, payments, reservations } from "#db/schema";
import { priceNoShow } from "#domain/pricing";
import type { ReservationResultDto } from "#contract/dto";
import { expectProblem, expectStatus } from "../api/helpers";
import { testBackends } from "../setup/db";
import { chargerClient, createFixture, eventually, onlineSince, openOcppHarness, type Fixture, type OcppHarness } from "./harness";

const MIN = 60_000;
const V201 = { protocols: ["ocpp2.0.1"] };

describe.each(testBackends())("reservations ($name)", (backend) => {
  let h: OcppHarness;
  let f: Fixture;
  let connectorIds: string[];
  beforeAll(async () => {
    h = await openOcppHarness(backend, { commandTimeoutMs: 800 });
    f = await createFixture(h, `reserve-${backend.name}`);
    const rows = await h.db.select().from(connectors).where(eq(connectors.chargerId, f.chargerId)).orderBy(connectors.connectorId);
    connectorIds = rows.map((r) => r.id);
  });
  afterAll(() => h.close());

  const reserve = (body: Record<string, unknown>, token = f.tenant.token) => h.call("POST", "/Business/Reservation", { token, body });
  const cancel = (id: string) => h.call("DELETE", `/Business/Reservation/${id}`, { token: f.tenant.token });
  const inMinutes = (n: number) => new Date(Date.now() + n * MIN).toISOString();
  const row = async (id: string) => (await h.db.select().from(reservations).where(eq(reservations.id, id)))[0];

  async function connect(handlers: Record<string, (params: Record<string, unknown>) => unknown>, opts: { protocols?: string[] } = {}): Promise<RPCClient> {
    const cli = chargerClient(h, f, opts);
    for (const [method, fn] of Object.entries(handlers)) cli.handle(method, async ({ params }) => (await fn((params ?? {}) as Record<string, unknown>)) as Record<string, unknown>);
    const since = new Date();
    await cli.connect();
    await onlineSince(h, f.chargerId, since);
    return cli;
  }

  it("1.6: ReserveNow accepted → ACTIVE; the reserving tag's StartTransaction uses it; audited", async () => {
    const asked: Record<string, unknown>[] = [];
    const cli = await connect({
      ReserveNow: (p) => {
        asked.push(p);
        return { status: "Accepted" };
      },
    });
    try {
      const expiresAt = inMinutes(30);
      const res = (await expectStatus(await reserve({ connectorId: connectorIds[0], idTag: "RES-16", expiresAt }), 201)) as ReservationResultDto;
      expect(res).toMatchObject({ status: "ACTIVE", chargerStatus: "Accepted", connectorNumber: 1, idTag: "RES-16" });
      expect(res.message).toContain("reservó el conector 1 para RES-16");
      // The time ends in "a. m."/"p. m.": one period, not two.
      expect(res.message).toMatch(/[ap]\. m\.$/);
      expect(asked).toEqual([{ connectorId: 1, expiryDate: new Date(expiresAt).toISOString(), idTag: "RES-16", reservationId: res.reservationId }]);

      // A second reservation of the same connector is refused before asking the charger.
      const taken = await expectProblem(await reserve({ connectorId: connectorIds[0], idTag: "OTRA", expiresAt }), 409);
      expect(taken.title).toBe("Ese conector ya tiene una reserva activa. Cancelala antes de hacer otra.");
      expect(asked).toHaveLength(1);

      const start = (await cli.call("StartTransaction", { connectorId: 1, idTag: "res-16", meterStart: 0, timestamp: new Date().toISOString(), reservationId: res.reservationId })) as {
        transactionId: number;
      };
      const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.transactionId, start.transactionId));
      expect(await row(res.id)).toMatchObject({ status: "USED", sessionId: session.id });
      const listed = await expectStatus(await h.call("GET", `/Business/Reservation?chargerId=${f.chargerId}&status=USED`, { token: f.tenant.token }), 200);
      expect(listed.items.map((x: { id: string }) => x.id)).toContain(res.id);
      await cli.call("StopTransaction", { transactionId: start.transactionId, meterStop: 1000, timestamp: new Date().toISOString(), reason: "EVDisconnected" });

      const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.businessId, f.tenant.businessId), eq(auditLog.action, "reservation.create"), eq(auditLog.resourceId, res.id)));
      expect(JSON.stringify(entry.changes)).toContain("RES-16");
      expect(JSON.stringify(entry.changes)).toContain("Accepted");
    } finally {
      await cli.close();
    }
  });

  it("1.6: refusals (Occupied, no ReserveNow at all, no answer) are REFUSED with the reason; an offline charger is 409 and nothing is kept", async () => {
    let mode: "occupied" | "silent" = "occupied";
    const cli = await connect({
      ReserveNow: () => (mode === "occupied" ? { status: "Occupied" } : new Promise(() => {})),
    });
    try {
      const occupied = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-A", expiresAt: inMinutes(20) }), 201)) as ReservationResultDto;
      expect(occupied).toMatchObject({ status: "REFUSED", chargerStatus: "Occupied" });
      expect(occupied.message).toBe("El cargador no aceptó la reserva: el conector está ocupado.");
      mode = "silent";
      const silent = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-B", expiresAt: inMinutes(20) }), 201)) as ReservationResultDto;
      expect(silent).toMatchObject({ status: "REFUSED", chargerStatus: "timeout" });
      expect(silent.message).toContain("no respondió a tiempo");
    } finally {
      // Its ReserveNow is still unanswered: close without waiting for it.
      await cli.close({ force: true });
    }
    await eventually(() => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean }>), (c) => !c.online);
    // A charger that does not implement reservations answers with a CALLERROR.
    const plain = await connect({});
    try {
      const none = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-C", expiresAt: inMinutes(20) }), 201)) as ReservationResultDto;
      expect(none).toMatchObject({ status: "REFUSED", chargerStatus: "NotImplemented" });
      expect(none.message).toBe("El cargador no aceptó la reserva: el cargador no admite reservas.");
    } finally {
      await plain.close();
    }
    await eventually(() => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean }>), (c) => !c.online);
    const before = (await h.db.select().from(reservations)).length;
    const offline = await expectProblem(await reserve({ connectorId: connectorIds[1], idTag: "RES-D", expiresAt: inMinutes(20) }), 409);
    expect(offline.title).toBe("El cargador no está conectado: no se puede reservar. Probá cuando vuelva a conectarse.");
    expect((await h.db.select().from(reservations)).length).toBe(before);
  });

  it("validates the input and hides other companies' connectors and reservations", async () => {
    const past = await expectProblem(await reserve({ connectorId: connectorIds[0], idTag: "RES-X", expiresAt: inMinutes(-5) }), 422);
    expect(past.errors?.expiresAt?.[0]).toBe("La reserva tiene que terminar en el futuro.");
    const far = await expectProblem(await reserve({ connectorId: connectorIds[0], idTag: "RES-X", expiresAt: inMinutes(25 * 60) }), 422);
    expect(far.errors?.expiresAt?.[0]).toBe("La reserva puede durar como máximo 24 horas.");
    const bad = await expectProblem(await reserve({ connectorId: "nope", idTag: "", expiresAt: "mañana" }), 422);
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(["connectorId", "expiresAt", "idTag"]);
    const other = await createFixture(h, `reserve-other-${backend.name}`);
    const foreign = await expectProblem(await reserve({ connectorId: connectorIds[0], idTag: "RES-X", expiresAt: inMinutes(10) }, other.tenant.token), 422);
    expect(foreign.errors?.connectorId?.[0]).toBe("Elegí un conector de la lista.");
    const [mine] = await h.db.select().from(reservations).where(eq(reservations.businessId, f.tenant.businessId)).limit(1);
    await expectProblem(await h.call("DELETE", `/Business/Reservation/${mine.id}`, { token: other.tenant.token }), 404);
    const theirs = await expectStatus(await h.call("GET", "/Business/Reservation", { token: other.tenant.token }), 200);
    expect(theirs.total).toBe(0);
  });

  it("1.6: cancelling sends CancelReservation (accepted, rejected, or the charger offline) and frees the connector; a second cancel is 409", async () => {
    const cancels: unknown[] = [];
    let answer = "Accepted";
    const cli = await connect({
      ReserveNow: () => ({ status: "Accepted" }),
      CancelReservation: (p) => {
        cancels.push(p);
        return { status: answer };
      },
    });
    try {
      const a = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-CAN", expiresAt: inMinutes(40) }), 201)) as ReservationResultDto;
      const done = (await expectStatus(await cancel(a.id), 200)) as ReservationResultDto;
      expect(done).toMatchObject({ status: "CANCELLED" });
      expect(done.message).toBe("Cancelamos la reserva y el cargador la liberó.");
      expect(cancels).toEqual([{ reservationId: a.reservationId }]);
      expect((await expectProblem(await cancel(a.id), 409)).title).toBe("La reserva ya no está activa: se usó, venció o ya se canceló.");

      answer = "Rejected";
      const b = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-CAN", expiresAt: inMinutes(40) }), 201)) as ReservationResultDto;
      expect(((await expectStatus(await cancel(b.id), 200)) as ReservationResultDto).message).toBe("Cancelamos la reserva. El cargador no la tenía (ya la había liberado).");

      const c = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-CAN", expiresAt: inMinutes(40) }), 201)) as ReservationResultDto;
      await cli.close();
      await eventually(() => h.call("GET", `/Business/Charger/${f.chargerId}`, { token: f.tenant.token }).then((r) => r.json() as Promise<{ online: boolean }>), (x) => !x.online);
      const offline = (await expectStatus(await cancel(c.id), 200)) as ReservationResultDto;
      expect(offline).toMatchObject({ status: "CANCELLED" });
      expect(offline.message).toBe("Cancelamos la reserva. El cargador no está conectado: la libera cuando venza.");
    } finally {
      await cli.close();
    }
  });

  it("a reservation that expires unused is charged the rate's no-show fee: a session in Actividad and a payment to collect", async () => {
    await h.db
      .insert(paymentAccounts)
      .values({ businessId: f.tenant.businessId, provider: "MERCADOPAGO", credentialsEncrypted: "x", status: "CONNECTED" })
      .onConflictDoNothing();
    const cli = await connect({ ReserveNow: () => ({ status: "Accepted" }) });
    let id: string;
    try {
      id = ((await expectStatus(await reserve({ connectorId: connectorIds[0], idTag: "RES-NOSHOW", expiresAt: inMinutes(15) }), 201)) as ReservationResultDto).id;
    } finally {
      await cli.close();
    }
    // Time passes: the reservation's end is behind us, the sweep finds it.
    const expiredAt = new Date(Date.now() - MIN);
    await h.db.update(reservations).set({ expiresAt: expiredAt }).where(eq(reservations.id, id));
    await h.central.sweep();
    const r = await row(id);
    expect(r).toMatchObject({ status: "EXPIRED" });
    expect(r.feeSessionId).toBeTruthy();
    const [fee] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, r.feeSessionId!));
    const expected = priceNoShow(fee.rateSnapshot!);
    expect(expected.totalCents).toBeGreaterThan(0);
    expect(fee).toMatchObject({ status: "COMPLETED", stopReason: "ReservationNoShow", energyWh: 0, idTag: "RES-NOSHOW", totalCents: expected.totalCents, vatCents: expected.vatCents, paymentStatus: "PENDING" });
    expect(fee.startedAt.getTime()).toBe(expiredAt.getTime());
    // Actividad lists it with its reason; Pagos has its payment.
    const detail = await expectStatus(await h.call("GET", `/Business/Activity/${fee.id}`, { token: f.tenant.token }), 200);
    expect(detail).toMatchObject({ stopReasonLabel: "No se presentó a la reserva", totalCents: expected.totalCents });
    const [payment] = await h.db.select().from(payments).where(eq(payments.sessionId, fee.id));
    expect(payment).toMatchObject({ amountCents: expected.totalCents, status: "PENDING" });
    const pagos = await expectStatus(await h.call("GET", "/Business/Payments", { token: f.tenant.token }), 200);
    expect(JSON.stringify(pagos)).toContain(fee.id);
    const dto = await expectStatus(await h.call("GET", `/Business/Reservation/${id}`, { token: f.tenant.token }), 200);
    expect(dto).toMatchObject({ status: "EXPIRED", feeSessionId: fee.id, feeTotalCents: expected.totalCents });
    // A second sweep charges nothing more.
    await h.central.sweep();
    expect((await h.db.select().from(chargingSessions).where(eq(chargingSessions.stopReason, "ReservationNoShow"))).length).toBe(1);
  });

  it("2.0.1: ReserveNow by EVSE and idToken; TransactionEvent Started uses it; ReservationStatusUpdate Expired charges, Removed cancels", async () => {
    const asked: Record<string, unknown>[] = [];
    const cancels: unknown[] = [];
    const cli = await connect(
      {
        ReserveNow: (p) => {
          asked.push(p);
          return { status: "Accepted" };
        },
        CancelReservation: (p) => {
          cancels.push(p);
          return { status: "Accepted" };
        },
      },
      V201,
    );
    try {
      const expiresAt = inMinutes(30);
      const a = (await expectStatus(await reserve({ connectorId: connectorIds[0], idTag: "RES-201", expiresAt }), 201)) as ReservationResultDto;
      expect(a.status).toBe("ACTIVE");
      expect(asked[0]).toEqual({ id: a.reservationId, expiryDateTime: new Date(expiresAt).toISOString(), evseId: 1, idToken: { idToken: "RES-201", type: "ISO14443" } });
      await cli.call("TransactionEvent", {
        eventType: "Started",
        timestamp: new Date().toISOString(),
        triggerReason: "Authorized",
        seqNo: 0,
        evse: { id: 1, connectorId: 1 },
        idToken: { idToken: "RES-201", type: "ISO14443" },
        reservationId: a.reservationId,
        transactionInfo: { transactionId: "res-201-tx", chargingState: "EVConnected" },
      });
      const used = await row(a.id);
      expect(used.status).toBe("USED");
      const [session] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.ocppTransactionId, "res-201-tx"));
      expect(used.sessionId).toBe(session.id);
      await cli.call("TransactionEvent", {
        eventType: "Ended",
        timestamp: new Date().toISOString(),
        triggerReason: "EVDeparted",
        seqNo: 1,
        evse: { id: 1, connectorId: 1 },
        transactionInfo: { transactionId: "res-201-tx", stoppedReason: "EVDisconnected" },
      });

      const b = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-201B", expiresAt: inMinutes(30) }), 201)) as ReservationResultDto;
      await cli.call("ReservationStatusUpdate", { reservationId: b.reservationId, reservationUpdateStatus: "Removed" });
      expect(await row(b.id)).toMatchObject({ status: "CANCELLED", chargerStatus: "Removed", feeSessionId: null });

      const c = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-201C", expiresAt: inMinutes(30) }), 201)) as ReservationResultDto;
      await cli.call("ReservationStatusUpdate", { reservationId: c.reservationId, reservationUpdateStatus: "Expired" });
      const expired = await row(c.id);
      expect(expired.status).toBe("EXPIRED");
      const [fee] = await h.db.select().from(chargingSessions).where(eq(chargingSessions.id, expired.feeSessionId!));
      const [rate] = await h.db.select().from(connectors).where(eq(connectors.id, connectorIds[1]));
      expect(rate.rateId).toBe(f.rateId);
      expect(fee.totalCents).toBe(priceNoShow(fee.rateSnapshot!).totalCents);

      const d = (await expectStatus(await reserve({ connectorId: connectorIds[1], idTag: "RES-201D", expiresAt: inMinutes(30) }), 201)) as ReservationResultDto;
      expect((await expectStatus(await cancel(d.id), 200)).status).toBe("CANCELLED");
      expect(cancels).toEqual([{ reservationId: d.reservationId }]);
    } finally {
      await cli.close();
    }
  });

  it("a rate without a no-show fee: the reservation expires with no charge", async () => {
    const g = await createFixture(h, `reserve-free-${backend.name}`, { noShowFeeCents: 0 });
    const [conn] = await h.db.select().from(connectors).where(eq(connectors.chargerId, g.chargerId)).limit(1);
    const [r] = await h.db
      .insert(reservations)
      .values({ businessId: g.tenant.businessId, chargerId: g.chargerId, connectorId: conn.id, connectorNumber: 1, idTag: "GRATIS", expiresAt: new Date(Date.now() - MIN) })
      .returning();
    await h.central.sweep();
    expect(await row(r.id)).toMatchObject({ status: "EXPIRED", feeSessionId: null });
  });
});
