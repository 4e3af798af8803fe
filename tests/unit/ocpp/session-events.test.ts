// The session events' emitter: typed delivery by event type, a failing listener isolated and
// reported, unsubscribing, and emit resolving once the listeners settled.
import { describe, expect, it } from "vitest";
import { createSessionEvents, followPartnerSessions, type SessionEvent } from "#ocpp/session-events";

describe("session events", () => {
  it("delivers an event to the listeners of its type only, and stops after unsubscribe", async () => {
    const events = createSessionEvents(() => {});
    const changed: (string | undefined)[] = [];
    const partner: string[] = [];
    const off = events.on("session.changed", (e) => void changed.push(e.chargerId));
    events.on("session.partner-started", (e) => void partner.push(e.sessionId));
    await events.emit({ type: "session.changed", businessId: "b1", chargerId: "c1" });
    await events.emit({ type: "session.changed", businessId: "b1" });
    off();
    await events.emit({ type: "session.changed", businessId: "b1", chargerId: "c2" });
    expect(changed).toEqual(["c1", undefined]);
    expect(partner).toEqual([]);
  });

  it("reports a failing listener (thrown or rejected) and still runs the others; emit waits for async listeners", async () => {
    const failures: [unknown, SessionEvent][] = [];
    const events = createSessionEvents((err, event) => failures.push([err, event]));
    const order: string[] = [];
    events.on("session.changed", () => {
      throw new Error("sync");
    });
    events.on("session.changed", async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      order.push("async done");
    });
    events.on("session.changed", () => Promise.reject(new Error("async")));
    await events.emit({ type: "session.changed", businessId: "b1", chargerId: "c1" });
    order.push("emit resolved");
    expect(order).toEqual(["async done", "emit resolved"]);
    expect(failures.map(([err]) => (err as Error).message).sort()).toEqual(["async", "sync"]);
    expect(failures[0][1]).toEqual({ type: "session.changed", businessId: "b1", chargerId: "c1" });
  });

  it("followPartnerSessions hands each partner-started session to the authorizer and logs its failure", async () => {
    const events = createSessionEvents(() => {});
    const given: unknown[] = [];
    const errors: unknown[] = [];
    let fail = false;
    followPartnerSessions(
      events,
      {
        sessionStarted: async (grant, session) => {
          if (fail) throw new Error("partner down");
          given.push({ grant, session });
        },
      },
      { error: (obj: object) => void errors.push(obj) },
    );
    const event = { type: "session.partner-started", businessId: "b1", chargerId: "c1", sessionId: "s1", connectorNumber: 2, grant: { status: "Accepted" } } as const;
    await events.emit(event);
    expect(given).toEqual([{ grant: { status: "Accepted" }, session: { id: "s1", chargerId: "c1", connectorNumber: 2 } }]);
    fail = true;
    await events.emit(event);
    expect(errors).toEqual([{ sessionId: "s1", err: "partner down" }]);
  });
});
