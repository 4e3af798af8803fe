// OCPP 1.6 Core profile, the charging session: Authorize, StartTransaction, MeterValues and
// StopTransaction. Each answer goes out after its commit; the station is rebalanced after it.
import type { ChargerLink, HandlerContext } from "../handler-context";
import { claimReservation } from "../reservations";
import { authorizationStatus, recordMeterValues, startTransaction, stopTransaction, type MeterValue, type StartPayload, type StopPayload } from "../store";

export function registerTransactions(ctx: HandlerContext, { ref, handle, seen }: ChargerLink) {
  const { db, telemetry, now, roaming, balancer } = ctx;

  handle("Authorize", async ({ params }) => {
    await seen();
    const idTag = (params as { idTag?: string }).idTag;
    const status = await authorizationStatus(db, ref, idTag, now(), roaming);
    // California Pricing: the driver's price, before the session starts.
    if (status === "Accepted" && idTag) ctx.prices.authorized16(ref, idTag);
    return { idTagInfo: { status } };
  });

  handle("StartTransaction", async ({ params }) => {
    const p = params as StartPayload;
    const { transactionId, sessionId, status, reserved, created, roaming: grant } = await startTransaction(db, ref, p, now(), roaming);
    if (sessionId && grant) await ctx.partnerSession(ref, grant, { id: sessionId, connectorNumber: p.connectorId });
    // The reserving tag's session uses its reservation (ADR 0018).
    if (sessionId && status === "Accepted" && reserved) await claimReservation(db, ref, { connectorNumber: p.connectorId, idTag: p.idTag, reservationId: p.reservationId, sessionId, at: now() });
    if (sessionId && status === "Accepted") balancer.balanceAfter(ref, "session");
    await seen();
    ctx.announce(ref.businessId, "session", ref.id, created);
    return { transactionId, idTagInfo: { status } };
  });

  handle("MeterValues", async ({ params }) => {
    const p = params as { connectorId: number; transactionId?: number; meterValue: MeterValue[] };
    const attached = await recordMeterValues(telemetry, ref, p, now());
    await seen();
    if (attached) {
      ctx.sessionRead(ref);
      balancer.balanceAfter(ref, "power");
      if (p.transactionId !== undefined) ctx.prices.metered16(ref, p.transactionId);
    }
    return {};
  });

  handle("StopTransaction", async ({ params }) => {
    const p = params as StopPayload;
    const { found, created } = await stopTransaction(db, ref, p, now());
    await seen();
    if (!found) ctx.logger.warn({ identity: ref.ocppIdentity, transactionId: p.transactionId }, "OCPP: StopTransaction de una transacción desconocida");
    else {
      balancer.balanceAfter(ref, "session");
      ctx.prices.stopped16(ref, p.transactionId);
    }
    ctx.announce(ref.businessId, "session", ref.id, created);
    // The same answer for a first and a repeated stop.
    return p.idTag ? { idTagInfo: { status: "Accepted" } } : {};
  });
}
