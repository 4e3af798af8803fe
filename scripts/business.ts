// `npm run business -- approve|reject|suspend|status <email>`: the admin command that decides a
// company's state (PENDING → ACTIVE | REJECTED | SUSPENDED).
//
// Opens the same database the server uses: PostgreSQL with DATABASE_URL, else the embedded
// PGlite under DATA_DIR (default .data). The embedded database belongs to one process at a
// time: stop the server first (with PostgreSQL it can run while the server is up).
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../db/client";
import { businessUsers, notifications } from "../db/schema";

type Command = "approve" | "reject" | "suspend" | "status";
const TARGET: Record<Exclude<Command, "status">, "ACTIVE" | "REJECTED" | "SUSPENDED"> = {
  approve: "ACTIVE",
  reject: "REJECTED",
  suspend: "SUSPENDED",
};

const NOTICE = {
  ACTIVE: {
    type: "BUSINESS_APPROVED",
    title: "¡Tu empresa fue aprobada!",
    body: (name: string) => `${name} ya puede cargar estaciones, cargadores y tarifas.`,
    link: "/station/new",
  },
  REJECTED: {
    type: "BUSINESS_REJECTED",
    title: "No pudimos aprobar tu empresa",
    body: (name: string) => `Los datos de ${name} no coincidieron con los registros del CUIT. Comunicate con soporte para revisarlos.`,
    link: null,
  },
} as const;

const USAGE = "Uso: npm run business -- approve|reject|suspend|status <correo> [--force]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Whether something answers at the local server's address (the embedded database would be in use). */
async function localServerRunning(): Promise<boolean> {
  const port = Number(process.env.PORT ?? 3000);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
    return res.status > 0;
  } catch {
    return false;
  }
}

async function main() {
  const args = process.argv.slice(2).filter((a) => a !== "--force");
  const force = process.argv.includes("--force");
  const [command, rawEmail] = args as [Command | undefined, string | undefined];
  if (!command || !rawEmail || !["approve", "reject", "suspend", "status"].includes(command)) fail(USAGE);
  const email = rawEmail.trim().toLowerCase();

  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = path.resolve(import.meta.dirname, "..", process.env.DATA_DIR ?? ".data");
  if (!databaseUrl && !force && (await localServerRunning())) {
    fail(
      "El servidor local está en marcha y la base embebida (PGlite) admite un solo proceso a la vez.\n" +
        "Detenelo (Ctrl-C en npm start), corré este comando y volvé a iniciarlo. Con DATABASE_URL (PostgreSQL) no hace falta.",
    );
  }

  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const rows = await database.db
      .select({ id: businessUsers.id, businessName: businessUsers.businessName, status: businessUsers.status, cuit: businessUsers.cuit })
      .from(businessUsers)
      .where(eq(sql`lower(${businessUsers.email})`, email));
    if (rows.length === 0) fail(`No hay ninguna empresa registrada con el correo ${email}.`);
    if (rows.length > 1) fail(`Hay ${rows.length} empresas con el correo ${email}; revisalas en la base de datos.`);
    const [business] = rows;

    if (command === "status") {
      console.log(`${business.businessName} (CUIT ${business.cuit ?? "—"}): ${business.status}`);
      return;
    }

    const status = TARGET[command];
    if (business.status === status) {
      console.log(`${business.businessName} ya estaba en ${status}; no se cambió nada.`);
      return;
    }
    await database.db.transaction(async (tx) => {
      await tx.update(businessUsers).set({ status }).where(eq(businessUsers.id, business.id));
      const notice = status === "SUSPENDED" ? undefined : NOTICE[status];
      if (notice) {
        await tx.insert(notifications).values({
          businessId: business.id,
          type: notice.type,
          title: notice.title,
          body: notice.body(business.businessName),
          link: notice.link,
        });
      }
    });
    console.log(`${business.businessName}: ${business.status} → ${status}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error("No se pudo cambiar el estado de la empresa:", error instanceof Error ? error.message : error);
  process.exit(1);
});
