// OCPP 2.0.1 Authorization and Transactions: Authorize, TransactionEvent and MeterValues, on the
// same session rows as 1.6 (ocpp/store201.ts replays each transaction's event log).
import type { ChargerLink, HandlerContext } from "../handler-context";
import { authorizationStatus, recordMeterValues, recordStatus } from "../store";
import { meterValuesPayload, recordTransactionEvent, type MeterValue201, type TransactionEvent201 } from "../store201";

export function registerTransactions(ctx: HandlerContext, { ref, handle, seen }: ChargerLink) {
  const { db, telemetry, now, roaming, balancer, live, logger } = ctx;

  handle("Authorize", async ({ params }) => {
    await seen();
    const { idToken } = params as { idToken?: { idToken?: string; type?: string } };
    return { idTokenInfo: { status: await authorizationStatus(db, ref, idToken?.idToken, now(), roaming, idToken?.type) } };
  });

  handle("TransactionEvent", async ({ params }) => {
    const p = params as TransactionEvent201;
    const result = await recordTransactionEvent({ db, telemetry }, ref, p, now(), roaming);
    if (result.roamingStart) {
      const { grant, sessionId, connectorNumber } = result.roamingStart;
      await ctx.partnerSession(ref, grant, { id: sessionId, connectorNumber });
    }
    await seen();
    if (result.duplicate) logger.info({ identity: ref.ocppIdentity, transactionId: p.transactionInfo.transactionId, seqNo: p.seqNo }, "OCPP: TransactionEvent repetido, ignorado");
    else balancer.balanceAfter(ref, p.eventType === "Updated" ? "power" : "session");
    let created = result.created;
    // The event moved the connector (plugged, charging, unplugged): the same row a 1.6 StatusNotification writes.
    if (result.connectorStatus) {
      const { connectorId, status, at } = result.connectorStatus;
      const moved = await recordStatus(db, ref, { connectorId, status, errorCode: "NoError", timestamp: at.toISOString() }, now());
      created = { notifications: [...created.notifications, ...moved.notifications] };
      live.publish(ref.businessId, { kind: "connector", chargerId: ref.id });
    }
    ctx.announce(ref.businessId, "session", ref.id, created);
    // The price, running cost or final cost on the charger's screen (a repeated event gets it
    // again, as its first answer may have been lost); a failure to work it out never holds the answer back.
    const price = await ctx.prices.transactionAnswer(ref, { eventType: p.eventType, transactionId: p.transactionInfo.transactionId }).catch((err: unknown) => {
      logger.warn({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudo calcular el costo para el cargador");
      return {};
    });
    return p.idToken ? { idTokenInfo: { status: result.tokenStatus }, ...price } : price;
  });

  handle("MeterValues", async ({ params }) => {
    const attached = await recordMeterValues(telemetry, ref, meterValuesPayload(params as { evseId: number; meterValue: MeterValue201[] }), now());
    await seen();
    if (attached) {
      ctx.sessionRead(ref);
      balancer.balanceAfter(ref, "power");
    }
    return {};
  });
}
