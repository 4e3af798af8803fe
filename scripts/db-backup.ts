// `npm run db:backup -- [file]` and `npm run db:restore -- <file> [--replace]`.
//
// The same database the server uses: PostgreSQL with DATABASE_URL (the server may keep running:
// the dump reads one consistent snapshot), else the embedded PGlite under DATA_DIR (default
// .data), which belongs to one process at a time: stop the server first. In the Docker image:
// `node build/db-backup.js backup /data/backups/x.ndjson.gz`.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { openDatabase } from "../db/client";
import { BackupError, backupDatabase, restoreDatabase } from "../db/backup";

const USAGE = "Uso: db-backup backup [archivo] | restore <archivo> [--replace]";

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const replace = rest.includes("--replace");
  const file = rest.find((a) => !a.startsWith("--"));
  if (command !== "backup" && command !== "restore") throw new BackupError(USAGE);
  if (command === "restore" && !file) throw new BackupError(USAGE);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const database = await openDatabase({ databaseUrl, dataDir: process.env.DATA_DIR });
  const where = database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite (${path.resolve(process.env.DATA_DIR ?? ".data", "db")})`;
  try {
    if (command === "backup") {
      const target = path.resolve(file ?? path.join("backups", `enchufa-${new Date().toISOString().replace(/[:.]/g, "-")}.ndjson.gz`));
      await mkdir(path.dirname(target), { recursive: true });
      const header = await backupDatabase(database.db, target);
      const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
      console.log(`Copia de ${where}: ${rows} filas de ${Object.keys(header.tables).length} tablas en ${target}`);
    } else {
      const header = await restoreDatabase(database.db, path.resolve(file!), { replace });
      const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
      console.log(`Restaurada en ${where} la copia del ${header.createdAt}: ${rows} filas.`);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof BackupError ? err.message : `No se pudo completar: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
