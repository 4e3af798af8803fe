// What the central system tells the services that follow charging sessions (drivers' prepaid
// charges, roaming partners). It emits a typed event after each commit that touches a session;
// the services subscribe where the server is wired, so the central system never names them and
// nothing is rebound after construction.
import type { Logger } from "../infra/logger";
import type { RoamingAuthorizer, RoamingGrant } from "./roaming";

export type SessionEvent =
  /**
   * A session of the company changed on this node: started, read, stopped, its connector moved,
   * or a sweep closed it. chargerId is absent when a sweep touched sessions of several chargers.
   */
  | { type: "session.changed"; businessId: string; chargerId?: string }
  /**
   * A roaming partner's token started this session: the session belongs to that partner (its
   * Sessions and CDR are pushed to it). Emitted before the charger gets its answer.
   */
  | { type: "session.partner-started"; businessId: string; chargerId: string; sessionId: string; connectorNumber: number; grant: RoamingGrant };

export type SessionEventType = SessionEvent["type"];
export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
export type SessionListener<T extends SessionEventType> = (event: SessionEventOf<T>) => void | Promise<void>;

export interface SessionEvents {
  /** Subscribes to one type of event; returns the unsubscribe function. */
  on<T extends SessionEventType>(type: T, listener: SessionListener<T>): () => void;
  /**
   * Delivers the event to every listener of its type and resolves when all of them settled. A
   * listener that fails is reported to onError and never stops the others nor the emitter.
   */
  emit(event: SessionEvent): Promise<void>;
}

export function createSessionEvents(onError: (err: unknown, event: SessionEvent) => void): SessionEvents {
  const listeners = new Map<SessionEventType, Set<(event: SessionEvent) => void | Promise<void>>>();
  return {
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      const l = listener as (event: SessionEvent) => void | Promise<void>;
      set.add(l);
      return () => void set.delete(l);
    },
    async emit(event) {
      const runs = [...(listeners.get(event.type) ?? [])].map(async (listener) => {
        try {
          await listener(event);
        } catch (err) {
          onError(err, event);
        }
      });
      await Promise.all(runs);
    },
  };
}

/**
 * The roaming partners follow the sessions their tokens start: each one is handed to the
 * partner's authorizer. A partner that cannot take it is logged; the charger's answer goes out
 * all the same. Returns the unsubscribe function.
 */
export function followPartnerSessions(events: SessionEvents, roaming: Pick<RoamingAuthorizer, "sessionStarted">, logger: Pick<Logger, "error">): () => void {
  return events.on("session.partner-started", async (e) => {
    try {
      await roaming.sessionStarted(e.grant, { id: e.sessionId, chargerId: e.chargerId, connectorNumber: e.connectorNumber });
    } catch (err) {
      logger.error({ sessionId: e.sessionId, err: err instanceof Error ? err.message : String(err) }, "OCPP: no se pudo asignar la carga al socio de roaming");
    }
  });
}
