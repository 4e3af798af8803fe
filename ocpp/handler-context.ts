// What the handlers of both protocols (ocpp/v16/, ocpp/v201/) share: the databases, the clock,
// the dashboards' live events, the session events for other services, and the few steps every
// handler takes after its commit (announce it, keep a status report, rebalance the station).
import type { Db } from "../db/client";
import { pushNotification, type SendPush } from "../infra/push";
import type { Logger } from "../infra/logger";
import type { Handle, Session } from "./connection/client";
import type { LiveEvents, LiveKind } from "./live";
import type { PriceDisplay } from "./price-display";
import type { RoamingAuthorizer, RoamingGrant } from "./roaming";
import type { SessionEvents } from "./session-events";
import type { Balancer } from "./smart-charging";
import type { ChargerRef, Created } from "./store";
import { recordChargerEvents } from "./store201";

export interface HandlerContext {
  db: Db;
  /** Where readings go: commits that do not wait for the disk (ADR 0023). */
  telemetry: Db;
  logger: Logger;
  now: () => Date;
  live: LiveEvents;
  roaming?: RoamingAuthorizer;
  balancer: Balancer;
  /** The price on the charger's screen (ocpp/price-display.ts): each call goes out after the charger's answer. */
  prices: PriceDisplay;
  /** After a commit: push its notifications, tell the dashboards, and on a session or connector change tell the session's followers. */
  announce(businessId: string, kind: LiveKind, chargerId: string | undefined, created?: Created): void;
  /** A reading attached to a session: the dashboards and the session's followers hear of it. */
  sessionRead(ref: ChargerRef): void;
  /** A partner's token started the session: the session's followers give it to the partner before the answer goes out. */
  partnerSession(ref: ChargerRef, grant: RoamingGrant, session: { id: string; connectorNumber: number }): Promise<void>;
  /** A status report kept as a charger event: its summary is the status it gives. */
  keep(ref: ChargerRef, kind: string, params: unknown, summary?: string, at?: string): Promise<void>;
}

/** One authenticated socket, as its handlers see it. */
export interface ChargerLink {
  ref: ChargerRef;
  session: Session;
  /** Registers a handler under the charger's call budget. */
  handle: Handle;
  /** Notes a sign of life; `force` (heartbeats) notes it even within 30 s of the last. */
  seen(force?: boolean): Promise<void>;
}

export function createHandlerContext(o: {
  db: Db;
  telemetry: Db;
  logger: Logger;
  now: () => Date;
  live: LiveEvents;
  events: SessionEvents;
  balancer: Balancer;
  prices: PriceDisplay;
  sendPush?: SendPush;
  roaming?: RoamingAuthorizer;
}): HandlerContext {
  const { db, logger, live, events, sendPush, now } = o;
  const announce: HandlerContext["announce"] = (businessId, kind, chargerId, created) => {
    for (const n of created?.notifications ?? []) {
      void pushNotification({ db, logger, sendPush }, n);
    }
    live.publish(businessId, { kind, chargerId });
    if (created?.notifications.length) live.publish(businessId, { kind: "notification" });
    if (kind === "session" || kind === "connector") void events.emit({ type: "session.changed", businessId, chargerId });
  };
  return {
    db,
    telemetry: o.telemetry,
    logger,
    now,
    live,
    roaming: o.roaming,
    balancer: o.balancer,
    prices: o.prices,
    announce,
    sessionRead(ref) {
      live.publish(ref.businessId, { kind: "session", chargerId: ref.id });
      void events.emit({ type: "session.changed", businessId: ref.businessId, chargerId: ref.id });
    },
    partnerSession: (ref, grant, session) =>
      events.emit({ type: "session.partner-started", businessId: ref.businessId, chargerId: ref.id, sessionId: session.id, connectorNumber: session.connectorNumber, grant }),
    async keep(ref, kind, params, summary, at) {
      const p = params as { status?: string; type?: string };
      await recordChargerEvents(db, ref, [{ kind, summary: summary ?? p.status ?? p.type ?? kind, payload: params, at }], now());
      live.publish(ref.businessId, { kind: "charger", chargerId: ref.id });
    },
  };
}
