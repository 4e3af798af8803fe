// Signs of life at scale (ocpp/store.ts touchMany, sweepSilentChargers): every connected charger's
// last_heartbeat_at is rewritten every 30–60 s, so that write must be an update in place (HOT),
// never a new entry in every index of chargers; and the silent-charger sweep must still find the
// chargers that went quiet. On PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargers } from "#db/schema";
import { sweepSilentChargers, touchMany } from "#ocpp/store";
import { queryRows } from "#infra/sql";
import { openHarness, type Harness } from "../api/helpers";
import { testBackends } from "../setup/db";
import { createFixture } from "./harness";

describe.each(testBackends())("signs of life ($name)", (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend);
  });
  afterAll(() => h.close());

  it("no index of chargers covers last_heartbeat_at, so a batch of signs of life updates the rows in place", async () => {
    const indexes = await queryRows<{ indexdef: string }>(h.db, sql`select indexdef from pg_indexes where tablename = 'chargers'`);
    expect(indexes.filter((i) => i.indexdef.includes("last_heartbeat_at"))).toEqual([]);

    const f = await createFixture(h, `signs-of-life-hot-${backend.name}`);
    await h.db.update(chargers).set({ online: true, lastHeartbeatAt: new Date("2026-11-29T10:00:00Z") }).where(eq(chargers.id, f.chargerId));
    // This connection's counters not yet flushed to the shared ones (pg_stat_xact_*) are current
    // at once; the write's own are the difference around it, in one transaction on one connection.
    const counts = (tx: Parameters<Parameters<typeof h.db.transaction>[0]>[0]) =>
      queryRows<{ updated: number; hot: number }>(tx, sql`select n_tup_upd::int as updated, n_tup_hot_upd::int as hot from pg_stat_xact_user_tables where relname = 'chargers'`).then(
        ([r]) => r ?? { updated: 0, hot: 0 },
      );
    const written = await h.db.transaction(async (tx) => {
      const before = await counts(tx);
      await touchMany(tx, [[f.chargerId, new Date("2026-11-29T10:01:00Z")]]);
      const after = await counts(tx);
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(written).toEqual({ updated: 1, hot: 1 });
  });

  it("the sweep takes offline the chargers silent for twice their interval, and only those", async () => {
    const quiet = await createFixture(h, `signs-of-life-quiet-${backend.name}`);
    const alive = await createFixture(h, `signs-of-life-alive-${backend.name}`);
    const now = new Date("2026-11-29T12:00:00Z");
    // Interval 60 s: silent for 121 s is offline, a sign of life 119 s ago is not.
    await h.db.update(chargers).set({ online: true, connectedNode: "node-a", lastHeartbeatAt: new Date(now.getTime() - 300_000) }).where(eq(chargers.id, quiet.chargerId));
    await h.db.update(chargers).set({ online: true, connectedNode: "node-a", lastHeartbeatAt: new Date(now.getTime() - 300_000) }).where(eq(chargers.id, alive.chargerId));
    await touchMany(h.db, [
      [quiet.chargerId, new Date(now.getTime() - 121_000)],
      [alive.chargerId, new Date(now.getTime() - 119_000)],
    ]);

    const swept = await sweepSilentChargers(h.db, now);
    expect(swept.offline.filter((c) => c.id === quiet.chargerId || c.id === alive.chargerId)).toEqual([{ id: quiet.chargerId, businessId: quiet.tenant.businessId, node: "node-a" }]);
    const rows = await h.db.select({ id: chargers.id, online: chargers.online }).from(chargers).where(sql`${chargers.id} in (${quiet.chargerId}, ${alive.chargerId})`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.online]))).toEqual({ [quiet.chargerId]: false, [alive.chargerId]: true });
  });
});
