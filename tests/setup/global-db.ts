// vitest globalSetup: when TEST_DATABASE_URL points at a PostgreSQL server, create a scratch
// database for this run, migrate it once and hand its name to the workers, which clone it for
// every test database (tests/setup/db.ts). Everything the run created is dropped at teardown.
//
// Also home of the small admin helpers db.ts uses, so that this file imports nothing from
// vitest at runtime (it runs in the main process, not in a test worker).
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#db/client";

export interface EnchufaPostgresContext {
  /** The server's URL as given (its database is only used to create and drop others). */
  adminUrl: string;
  /** Migrated scratch database, the template of every test database. */
  template: string;
  /** Every database of this run is named `enchufa_test_<runId>…`. */
  runId: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    enchufaPostgres: EnchufaPostgresContext | null;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    project.provide("enchufaPostgres", null);
    return;
  }

  const runId = newRunId();
  const template = `enchufa_test_${runId}`;
  await adminQuery(adminUrl, `create database "${template}"`);
  try {
    // Migrate through the product's own code path, then disconnect: a template database
    // cannot be cloned while anyone is connected to it.
    const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, template) });
    await database.close();
  } catch (err) {
    await dropRunDatabases(adminUrl, runId);
    throw err;
  }
  project.provide("enchufaPostgres", { adminUrl, template, runId });

  return async () => {
    await dropRunDatabases(adminUrl, runId);
  };
}

// ---------------------------------------------------------------------------------------------
// Admin helpers (one short-lived connection each)

export function newRunId(): string {
  return randomBytes(4).toString("hex");
}

/** The same server URL pointing at another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, text: string, values?: unknown[]): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  // WITH (FORCE) (PostgreSQL 13+) ends connections a crashed test may have left open.
  await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
}

/** Drops every database whose name starts with `enchufa_test_<runId>`. */
export async function dropRunDatabases(serverUrl: string, runId: string): Promise<void> {
  const { rows } = await adminQuery(serverUrl, "select datname from pg_database where datname like $1", [`enchufa\\_test\\_${runId}%`]);
  for (const row of rows as { datname: string }[]) await dropDatabase(serverUrl, row.datname);
}
