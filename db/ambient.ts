// A request's transaction, whichever handle of the database its code holds.
//
// An audited write and its audit entry commit together (api/access.ts opens the transaction
// around the handler). The handler's code reaches the database through handles made long before
// the request (the API's services, the driver payments module, the central system): each of them
// is this module's proxy over the one database, and inside the transaction's async context every
// proxy answers the transaction. On PGlite (one connection) a query on the database itself while
// the transaction is open would wait for it forever; on PostgreSQL it would run outside the
// transaction and see none of its changes.
//
// Work that acts on the outside world once the change is done (load balancing a station, dropping
// cached answers) goes in `afterCommit`: it runs when the transaction commits, and not at all when
// it rolls back.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./types";

interface Scope {
  root: Db;
  tx: Db;
  open: boolean;
  afterCommit: (() => unknown)[];
}

const scope = new AsyncLocalStorage<Scope>();
const ROOT = Symbol("ambient.root");

function rootOf(db: Db): Db {
  return ((db as unknown as Record<symbol, Db | undefined>)[ROOT] ?? db) as Db;
}

/** The database as every module should hold it: the open transaction of the current request, else itself. */
export function ambientDb(db: Db): Db {
  if ((db as unknown as Record<symbol, unknown>)[ROOT]) return db;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === ROOT) return target;
      const current = scope.getStore();
      const base = current?.open && current.root === target ? current.tx : target;
      const value: unknown = Reflect.get(base, prop, base);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(base) : value;
    },
  });
}

/**
 * Runs `work` in one transaction that every ambient handle of `db` joins; commits when it
 * resolves, rolls back when it throws, then runs the tasks queued with `afterCommit`. Inside
 * another one, `work` joins it.
 */
export async function inTransaction<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const root = rootOf(db);
  const outer = scope.getStore();
  if (outer?.open && outer.root === root) return work();
  const store: Scope = { root, tx: root, open: false, afterCommit: [] };
  const result = await root.transaction(async (tx) => {
    store.tx = tx as unknown as Db;
    store.open = true;
    try {
      return await scope.run(store, work);
    } finally {
      store.open = false;
    }
  });
  for (const task of store.afterCommit) await task();
  return result;
}

/** Runs `task` once the current transaction commits (never if it rolls back); outside one, now. */
export async function afterCommit(task: () => unknown): Promise<void> {
  const current = scope.getStore();
  if (current?.open) current.afterCommit.push(task);
  else await task();
}
