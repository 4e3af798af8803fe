// The dashboard's sign-ins, kept on the server (ADR 0027). The session cookie is signed, so
// nobody can make one, but a copy of it stays good until it expires unless the server can say
// "this sign-in is over": each sign-in is a row named by the SHA-256 of a random id the cookie
// carries; signing out deletes it, signing out everywhere deletes every row of the account.
//
// Like the rate limits (infra/rate-limit.ts), the process-wide store is kept on globalThis:
// server.ts sets the database one at start, and the React Router bundle finds the same one.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { webSessions } from "../db/schema";

export interface WebSessionStore {
  add(idHash: string, uid: string, expiresAt: Date): Promise<void>;
  /** Whether the row exists, belongs to `uid` and has not expired. */
  isLive(idHash: string, uid: string): Promise<boolean>;
  remove(idHash: string): Promise<void>;
  /** Delete every row of the account; answers how many there were. */
  removeAll(uid: string): Promise<number>;
  /** Live rows of the account. */
  countLive(uid: string): Promise<number>;
  /** Forget everything (tests). */
  clear(): Promise<void>;
}

/** One process without a database (tests): rows in memory. */
export class MemoryWebSessionStore implements WebSessionStore {
  private rows = new Map<string, { uid: string; expiresAt: number }>();

  async add(idHash: string, uid: string, expiresAt: Date) {
    this.rows.set(idHash, { uid, expiresAt: expiresAt.getTime() });
  }

  async isLive(idHash: string, uid: string) {
    const row = this.rows.get(idHash);
    return Boolean(row && row.uid === uid && row.expiresAt > Date.now());
  }

  async remove(idHash: string) {
    this.rows.delete(idHash);
  }

  async removeAll(uid: string) {
    let n = 0;
    for (const [id, row] of this.rows) if (row.uid === uid && this.rows.delete(id)) n++;
    return n;
  }

  async countLive(uid: string) {
    return [...this.rows.values()].filter((row) => row.uid === uid && row.expiresAt > Date.now()).length;
  }

  async clear() {
    this.rows.clear();
  }
}

/** Rows in `web_sessions` (PGlite or PostgreSQL): they survive restarts and hold for every node. */
export class DbWebSessionStore implements WebSessionStore {
  private writes = 0;

  constructor(private readonly db: Db) {}

  async add(idHash: string, uid: string, expiresAt: Date) {
    await this.db.insert(webSessions).values({ idHash, uid, expiresAt });
    // Expired rows are of no use: swept now and then, on sign-in.
    if (++this.writes % 200 === 0) await this.db.delete(webSessions).where(lt(webSessions.expiresAt, new Date()));
  }

  async isLive(idHash: string, uid: string) {
    return (await this.liveUntil(idHash, uid)) !== null;
  }

  /** When the sign-in expires, or null when it is not live. */
  async liveUntil(idHash: string, uid: string): Promise<Date | null> {
    const rows = await this.db
      .select({ expiresAt: webSessions.expiresAt })
      .from(webSessions)
      .where(and(eq(webSessions.idHash, idHash), eq(webSessions.uid, uid), gt(webSessions.expiresAt, new Date())))
      .limit(1);
    return rows[0]?.expiresAt ?? null;
  }

  async remove(idHash: string) {
    await this.db.delete(webSessions).where(eq(webSessions.idHash, idHash));
  }

  async removeAll(uid: string) {
    const gone = await this.db.delete(webSessions).where(eq(webSessions.uid, uid)).returning({ idHash: webSessions.idHash });
    return gone.length;
  }

  async countLive(uid: string) {
    const rows = await this.db
      .select({ idHash: webSessions.idHash })
      .from(webSessions)
      .where(and(eq(webSessions.uid, uid), gt(webSessions.expiresAt, new Date())));
    return rows.length;
  }

  async clear() {
    await this.db.delete(webSessions);
  }
}

/** How long a live sign-in is remembered by SingleProcessWebSessionStore at most (it also stops at the sign-in's expiry). */
export const REMEMBER_LIVE_MS = 10 * 60_000;
const REMEMBERED_MAX = 10_000;

/**
 * The embedded database's store. PGlite is opened by one process only, so every sign-out and
 * every "sign out everywhere" passes through this object: a sign-in found live can be remembered
 * (until it expires, REMEMBER_LIVE_MS at most) and forgotten the moment it is removed, and the
 * guard stops asking the database on every page. With PostgreSQL, where another node may end a
 * sign-in, the plain DbWebSessionStore asks every time.
 */
export class SingleProcessWebSessionStore implements WebSessionStore {
  private live = new Map<string, { uid: string; until: number }>();

  constructor(
    private readonly inner: DbWebSessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  async add(idHash: string, uid: string, expiresAt: Date) {
    await this.inner.add(idHash, uid, expiresAt);
  }

  async isLive(idHash: string, uid: string) {
    const t = this.now();
    const known = this.live.get(idHash);
    if (known && known.uid === uid && known.until > t) return true;
    const expiresAt = await this.inner.liveUntil(idHash, uid);
    if (!expiresAt) return false;
    if (this.live.size >= REMEMBERED_MAX) this.live.clear();
    this.live.set(idHash, { uid, until: Math.min(expiresAt.getTime(), t + REMEMBER_LIVE_MS) });
    return true;
  }

  async remove(idHash: string) {
    this.live.delete(idHash);
    await this.inner.remove(idHash);
  }

  async removeAll(uid: string) {
    for (const [idHash, known] of this.live) if (known.uid === uid) this.live.delete(idHash);
    return this.inner.removeAll(uid);
  }

  countLive(uid: string) {
    return this.inner.countLive(uid);
  }

  async clear() {
    this.live.clear();
    await this.inner.clear();
  }
}

const STORE = Symbol.for("enchufa.webSessionStore");
type WithStore = typeof globalThis & { [STORE]?: WebSessionStore };

export function setWebSessionStore(store: WebSessionStore | undefined) {
  (globalThis as WithStore)[STORE] = store;
}

export function getWebSessionStore(): WebSessionStore {
  return ((globalThis as WithStore)[STORE] ??= new MemoryWebSessionStore());
}

/** A new random session id (what the cookie carries). */
export const newSessionId = () => randomBytes(32).toString("base64url");

/** What the store keeps of a session id. */
export const sessionIdHash = (id: string) => createHash("sha256").update(id).digest("hex");
