// Reads the embedded database's one process keeps until their tables are written (db/write-watch.ts,
// ADR 0049): every statement is seen on PGlite's wire, whoever sends it, so a changed role, a
// renamed company or a new notification shows on the very next request. PostgreSQL has no watch:
// the same reads are made every time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { businessMembers, businessUsers, notifications, paymentAccounts } from "#db/schema";
import { createWriteWatch, stableReads } from "#db/write-watch";
import { createTenant, expectStatus, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

describe("the write watch's reading of SQL", () => {
  it("moves a table's version on the statements that may write it, and no other", () => {
    const watch = createWriteWatch();
    const v = () => watch.version(["business_members"]);
    const start = v();
    watch.observe('select * from "business_members" for update');
    watch.observe('insert into "notifications" ("id") values ($1) on conflict do update set "id" = excluded.id');
    expect(v()).toBe(start);
    watch.observe('update "business_members" set "role" = $1');
    expect(v()).toBe(start + 1);
    watch.observe("DELETE FROM public.business_members WHERE id = $1");
    watch.observe("with x as (select 1) insert into business_members select 1");
    watch.observe("truncate table business_members cascade");
    expect(v()).toBe(start + 4);
  });

  it("a read inside a transaction that wrote its table is neither served from memory nor kept", async () => {
    const watch = createWriteWatch();
    const kept = stableReads(watch);
    let value = 1;
    expect(await kept.get(["notifications"], "k", async () => value)).toBe(1);
    watch.observe("BEGIN");
    watch.observe('update "notifications" set "read_at" = now()');
    value = 2;
    expect(await kept.get(["notifications"], "k", async () => value)).toBe(2);
    value = 5;
    expect(await kept.get(["notifications"], "k", async () => value)).toBe(5);
    watch.observe("ROLLBACK");
    value = 1;
    expect(await kept.get(["notifications"], "k", async () => value)).toBe(1);
    value = 3;
    expect(await kept.get(["notifications"], "k", async () => value)).toBe(1); // kept again
  });

  it("moves again when a transaction that wrote it ends, and every version at a rollback", () => {
    const watch = createWriteWatch();
    const members = () => watch.version(["business_members"]);
    const other = () => watch.version(["stations"]);
    watch.observe("BEGIN");
    expect(watch.writing(["business_members"])).toBe(false);
    watch.observe('update "business_members" set "role" = $1');
    expect(watch.writing(["business_members"])).toBe(true);
    expect(watch.writing(["stations"])).toBe(false);
    const inside = members();
    watch.observe("COMMIT");
    expect(members()).toBe(inside + 1);
    expect(watch.writing(["business_members"])).toBe(false);
    const before = other();
    watch.observe("ROLLBACK");
    watch.observe("rollback to savepoint sp1");
    expect(other()).toBe(before + 2);
  });
});

describe.each(testBackends())("reads kept until their tables are written ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;

  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000 });
    t = await createTenant(h, "kept-owner");
  });
  afterAll(() => h?.close());

  it("PGlite sees the writes of drizzle, raw SQL and transactions; PostgreSQL has no watch", async () => {
    const watch = h.database.writes;
    if (backend.name !== "pglite") {
      expect(watch).toBeUndefined();
      let reads = 0;
      const kept = stableReads(watch);
      await kept.get(["stations"], "k", async () => ++reads);
      await kept.get(["stations"], "k", async () => ++reads);
      expect(reads).toBe(2);
      return;
    }
    const v = () => watch!.version(["business_users"]);
    let at = v();
    await h.db.select().from(businessUsers).where(eq(businessUsers.id, t.businessId));
    expect(v()).toBe(at);
    await h.db.update(businessUsers).set({ businessName: "Otra" }).where(eq(businessUsers.id, t.businessId));
    expect(v()).toBeGreaterThan(at);
    at = v();
    await h.db.execute(sql`update business_users set business_name = 'Otra más' where id = ${t.businessId}`);
    expect(v()).toBeGreaterThan(at);
    at = v();
    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(businessUsers).set({ businessName: "Nunca" }).where(eq(businessUsers.id, t.businessId));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(v()).toBeGreaterThanOrEqual(at + 2); // the write, then its rollback
  });

  it("a changed role and a renamed company show on the next request", async () => {
    const account = () => h.call("GET", "/Account/Business", { token: t.token });
    expect(await expectStatus(await account(), 200)).toMatchObject({ role: "OWNER" });
    await h.db.update(businessUsers).set({ businessName: "Renombrada S.A." }).where(eq(businessUsers.id, t.businessId));
    expect(await expectStatus(await account(), 200)).toMatchObject({ businessName: "Renombrada S.A.", role: "OWNER" });
    await h.db.update(businessMembers).set({ role: "READER" }).where(eq(businessMembers.businessId, t.businessId));
    expect(await expectStatus(await account(), 200)).toMatchObject({ role: "READER" });
    // The new role is the one the guard applies: a reader may not edit the profile.
    expect((await h.call("PATCH", "/Business/BusinessUser/Update", { token: t.token, body: { businessName: "X" } })).status).toBe(403);
    await h.db.update(businessMembers).set({ role: "OWNER" }).where(eq(businessMembers.businessId, t.businessId));
    expect(await expectStatus(await account(), 200)).toMatchObject({ role: "OWNER" });
  });

  it("a member removed loses access on the next request", async () => {
    const other = await createTenant(h, "kept-removed");
    expect((await h.call("GET", "/Business/Notification/UnreadCount", { token: other.token })).status).toBe(200);
    await h.db.delete(businessMembers).where(eq(businessMembers.businessId, other.businessId));
    expect((await h.call("GET", "/Business/Notification/UnreadCount", { token: other.token })).status).toBe(403);
  });

  it("the bell's count follows new notifications and reads at once", async () => {
    const unread = async () => (await expectStatus<{ unread: number }>(await h.call("GET", "/Business/Notification/UnreadCount", { token: t.token }), 200)).unread;
    const start = await unread();
    const [row] = await h.db.insert(notifications).values({ businessId: t.businessId, type: "CHARGER_OFFLINE", title: "Sin conexión", body: "—" }).returning();
    expect(await unread()).toBe(start + 1);
    await expectStatus(await h.call("POST", `/Business/Notification/${row.id}/Read`, { token: t.token }), 200);
    expect(await unread()).toBe(start);
    await h.db.update(notifications).set({ readAt: null }).where(and(eq(notifications.id, row.id), eq(notifications.businessId, t.businessId)));
    expect(await unread()).toBe(start + 1);
  });

  it("a payment account's state follows its writes at once", async () => {
    const account = async () => expectStatus(await h.call("GET", "/Pagos360/BusinessUser", { token: t.token }), 200);
    expect(await account()).toMatchObject({ connected: false, status: "DISCONNECTED" });
    await expectStatus(await h.call("PUT", "/Pagos360/BusinessUser", { token: t.token, body: { apiKey: "p360_live_abcdefghijklmnop1234", accountName: "Cobros" } }), 200);
    expect(await account()).toMatchObject({ connected: true, status: "CONNECTED", last4: "1234" });
    await h.db.update(paymentAccounts).set({ status: "ERROR", lastError: "Clave rechazada" }).where(eq(paymentAccounts.businessId, t.businessId));
    expect(await account()).toMatchObject({ status: "ERROR", lastError: "Clave rechazada" });
    await expectStatus(await h.call("DELETE", "/Pagos360/BusinessUser", { token: t.token }), 200);
    expect(await account()).toMatchObject({ connected: false });
  });
});
