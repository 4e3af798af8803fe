// The dashboard's sign-ins in the database (ADR 0027): a row per sign-in, named by the SHA-256
// of the cookie's random id; sign-out deletes one row, "todos los dispositivos" every row of the
// account; expired rows never count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { webSessions } from "#db/schema";
import { DbWebSessionStore, newSessionId, sessionIdHash } from "#infra/web-sessions";
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
});
