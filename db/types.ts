// The database's type, apart from the code that opens it, so that modules the opener itself uses
// (the ambient transaction) can name it without importing the opener.
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

export type Schema = typeof schema;

/** The Drizzle database, whichever driver is underneath. Transactions (`tx`) are assignable to it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
