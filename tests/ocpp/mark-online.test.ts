// A charger's online mark (ocpp/store.ts markOnline): one statement that flips the row under its
// lock, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers, notifications } from "#db/schema";
import { markOnline, type ChargerRef } from "#ocpp/store";
import { openHarness, type Harness } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture } from "./harness";

describe.each(testBackends())("markOnline ($name)", (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend);
  });
  afterAll(() => h.close());

  const onlineNotes = async (businessId: string) => (await h.db.select().from(notifications).where(eq(notifications.businessId, businessId))).filter((n) => n.type === "CHARGER_ONLINE");

  it("notifies the first connection and each return from offline, once however many nodes mark it at the same time", async () => {
    const f = await createFixture(h, `mark-online-${backend.name}`);
    const ref: ChargerRef = { id: f.chargerId, businessId: f.tenant.businessId, name: "Cargador del test", ocppIdentity: f.identity };
    const t = new Date("2026-11-28T12:00:00Z");

    const first = await markOnline(h.db, ref, "node-a", t, "ocpp2.0.1");
    expect(first.notifications.map((n) => n.title)).toEqual(["Cargador conectado"]);
    const [row] = await h.db.select().from(chargers).where(eq(chargers.id, f.chargerId));
    expect(row).toMatchObject({ online: true, connectedNode: "node-a", ocppProtocol: "ocpp2.0.1" });
    expect(row.lastHeartbeatAt?.toISOString()).toBe(t.toISOString());

    // Already online: the node and time change, nobody is told again.
    expect((await markOnline(h.db, ref, "node-b", new Date(t.getTime() + 1000))).notifications).toEqual([]);
    expect((await h.db.select().from(chargers).where(eq(chargers.id, f.chargerId)))[0].connectedNode).toBe("node-b");

    // Offline, then two nodes mark it at once: one notification, "nuevamente".
    await h.db.update(chargers).set({ online: false, connectedNode: null }).where(eq(chargers.id, f.chargerId));
    const both = await Promise.all([markOnline(h.db, ref, "node-a", new Date(t.getTime() + 2000)), markOnline(h.db, ref, "node-b", new Date(t.getTime() + 2000))]);
    expect(both.flatMap((c) => c.notifications.map((n) => n.title))).toEqual(["Cargador conectado nuevamente"]);
    expect((await onlineNotes(f.tenant.businessId)).map((n) => n.title).sort()).toEqual(["Cargador conectado", "Cargador conectado nuevamente"]);
  });

  it("a charger deleted meanwhile is left alone", async () => {
    const ref: ChargerRef = { id: "00000000-0000-4000-8000-000000000000", businessId: "00000000-0000-4000-8000-000000000001", name: "x", ocppIdentity: "x" };
    expect((await markOnline(h.db, ref, "node-a", new Date())).notifications).toEqual([]);
  });
});
