// The dashboard's sign-ins in the database (ADR 0027): a row per sign-in, named by the SHA-256
// of the cookie's random id; sign-out deletes one row, "todos los dispositivos" every row of the
// account; expired rows never count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { webSessions } from "#db/schema";
import { DbWebSessionStore, REMEMBER_LIVE_MS, SingleProcessWebSessionStore, newSessionId, sessionIdHash } from "#infra/web-sessions";
import type { Database } from "#db/client";
import { testBackends } from "./helpers";

describe.each(testBackends())("web sessions in the database ($name)", (backend) => {
  let database: Database;
  let store: DbWebSessionStore;
  const later = () => new Date(Date.now() + 3_600_000);

  beforeAll(async () => {
    database = await backend.open();
    store = new DbWebSessionStore(database.db);
  });
  afterAll(() => database?.close());

  it("a sign-in is live until it is removed; only its hash is stored", async () => {
    const id = newSessionId();
    await store.add(sessionIdHash(id), "uid-ana", later());
    expect(await store.isLive(sessionIdHash(id), "uid-ana")).toBe(true);
    expect(await store.isLive(sessionIdHash(id), "uid-beto")).toBe(false);
    const rows = await database.db.select().from(webSessions).where(eq(webSessions.uid, "uid-ana"));
    expect(rows.map((r) => r.idHash)).toEqual([sessionIdHash(id)]);
    expect(JSON.stringify(rows)).not.toContain(id);
    await store.remove(sessionIdHash(id));
    expect(await store.isLive(sessionIdHash(id), "uid-ana")).toBe(false);
  });

  it("removeAll ends every sign-in of one account, not another's; expired rows are not live", async () => {
    const [a1, a2, b1, old] = [newSessionId(), newSessionId(), newSessionId(), newSessionId()];
    await store.add(sessionIdHash(a1), "uid-a", later());
    await store.add(sessionIdHash(a2), "uid-a", later());
    await store.add(sessionIdHash(b1), "uid-b", later());
    await store.add(sessionIdHash(old), "uid-a", new Date(Date.now() - 1000));
    expect(await store.isLive(sessionIdHash(old), "uid-a")).toBe(false);
    expect(await store.countLive("uid-a")).toBe(2);
    expect(await store.removeAll("uid-a")).toBe(3);
    expect(await store.countLive("uid-a")).toBe(0);
    expect(await store.isLive(sessionIdHash(b1), "uid-b")).toBe(true);
  });

  it("the embedded database's store asks once per sign-in, and a sign-out or sign-out everywhere ends it at once", async () => {
    let t = Date.now();
    const remembering = new SingleProcessWebSessionStore(store, () => t);
    const [mine, other] = [newSessionId(), newSessionId()];
    await remembering.add(sessionIdHash(mine), "uid-cami", later());
    await remembering.add(sessionIdHash(other), "uid-cami", later());
    let asked = 0;
    const liveUntil = store.liveUntil.bind(store);
    store.liveUntil = (idHash, uid) => (asked++, liveUntil(idHash, uid));
    try {
      expect(await remembering.isLive(sessionIdHash(mine), "uid-cami")).toBe(true);
      expect(await remembering.isLive(sessionIdHash(mine), "uid-cami")).toBe(true);
      expect(asked).toBe(1);
      // Another account's uid with the same id is asked (and refused), never taken from memory.
      expect(await remembering.isLive(sessionIdHash(mine), "uid-dani")).toBe(false);
      // Remembered for REMEMBER_LIVE_MS at most, then asked again.
      t += REMEMBER_LIVE_MS + 1;
      expect(await remembering.isLive(sessionIdHash(mine), "uid-cami")).toBe(true);
      expect(asked).toBe(3);
      await remembering.remove(sessionIdHash(mine));
      expect(await remembering.isLive(sessionIdHash(mine), "uid-cami")).toBe(false);
      expect(await remembering.isLive(sessionIdHash(other), "uid-cami")).toBe(true);
      await remembering.removeAll("uid-cami");
      expect(await remembering.isLive(sessionIdHash(other), "uid-cami")).toBe(false);
    } finally {
      store.liveUntil = liveUntil;
    }
  });

  it("a remembered sign-in ends at its own expiry", async () => {
    let t = Date.now();
    const remembering = new SingleProcessWebSessionStore(store, () => t);
    const id = newSessionId();
    await remembering.add(sessionIdHash(id), "uid-eva", new Date(t + 60_000));
    expect(await remembering.isLive(sessionIdHash(id), "uid-eva")).toBe(true);
    t += 61_000;
    // The row has not expired for the database's clock yet (the test moved only the store's), so
    // only the remembered expiry can say no here: asked again, the row still answers live.
    let asked = 0;
    const liveUntil = store.liveUntil.bind(store);
    store.liveUntil = (idHash, uid) => (asked++, liveUntil(idHash, uid));
    try {
      await remembering.isLive(sessionIdHash(id), "uid-eva");
      expect(asked).toBe(1);
    } finally {
      store.liveUntil = liveUntil;
    }
  });
});
