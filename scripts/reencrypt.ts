// `npm run db:reencrypt`: after rotating ENCRYPTION_KEY (new key first, old keys still listed),
// re-seals every stored secret (payment credentials, ARCA certificates and keys, roaming tokens, ARCA
// access tickets) with the new key and says whether the old keys can now be removed. Exit code 1
// when some secret cannot be opened with any configured key.
// Opens the server's database: PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR (.data;
// PGlite admits one process, so stop the local server first). Prints counts, never secrets.
import path from "node:path";
import { createKeyRing } from "../infra/crypto";
import { reencryptSecrets } from "../api/key-rotation";
import { openDatabase } from "../db/client";
import { hexKeys } from "../server/env";

async function main() {
  const parsed = hexKeys.safeParse(process.env.ENCRYPTION_KEY ?? "");
  if (!parsed.success) throw new Error(`ENCRYPTION_KEY ${parsed.error.issues[0]?.message ?? "no es válida"}`);
  const keys = parsed.data;
  const ring = createKeyRing(keys);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = path.resolve(import.meta.dirname, "..", process.env.DATA_DIR ?? ".data");
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const report = await reencryptSecrets(database.db, ring);
    console.log(
      `[db:reencrypt] ${report.checked} secretos revisados, ${report.reencrypted} cifrados de nuevo con la clave ${ring.primaryKeyId}.`,
    );
    if (report.failed.length > 0) {
      console.error(
        `[db:reencrypt] ${report.failed.length} secretos no se pudieron abrir con ninguna clave configurada (${report.failed.map((f) => `${f.what} ${f.id}`).join(", ")}): no quites claves viejas todavía.`,
      );
      process.exitCode = 1;
    } else if (keys.length > 1) {
      console.log("[db:reencrypt] Ya podés quitar las claves viejas de ENCRYPTION_KEY y dejar solo la primera.");
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error("[db:reencrypt] No se pudo completar:", err instanceof Error ? err.message : err);
  process.exit(1);
});
