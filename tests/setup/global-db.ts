// vitest globalSetup: when TEST_DATABASE_URL points at a PostgreSQL server, create a scratch
// database for this run, migrate it once and hand its name to the workers, which clone it for
// every test database (tests/setup/db.ts). Everything the run created is dropped at teardown.
//
// Also home of the small admin helpers db.ts uses, so that this file imports nothing from
// vitest at runtime (it runs in the main process, not in a test worker).
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrationsFolder, openDatabase } from "#db/client";

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
    /** A file holding an image of a migrated PGlite database, the start of every PGlite test database. */
    enchufaPgliteImage: string;
  }
}

/**
 * Migrates one in-memory PGlite with the product's migrations and writes its image to a
 * file named by the migrations' content: each test database then starts from it (db.ts) instead
 * of migrating again. A changed migration makes a new file.
 */
async function migratedPgliteImage(): Promise<string> {
  const hash = createHash("sha256");
  const folder = migrationsFolder();
  for (const name of (await readdir(folder, { recursive: true })).sort()) {
    const file = path.join(folder, name);
    if ((await stat(file)).isFile()) hash.update(name).update(await readFile(file));
  }
  const image = path.join(os.tmpdir(), `enchufa-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
  if (existsSync(image)) return image;
  const client = await PGlite.create();
  try {
    await migrate(drizzle({ client }), { migrationsFolder: folder });
    const dump = await client.dumpDataDir("none");
    const partial = `${image}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, image);
  } finally {
    await client.close();
  }
  return image;
}

export default async function setup(project: TestProject) {
  project.provide("enchufaPgliteImage", await migratedPgliteImage());
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
