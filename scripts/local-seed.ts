// Local mode's seeding step (`npm start`): migrates the database the server is about to open,
// seeds the catalogues and the demo operator, and prepares the QR demo. It runs before the
// server starts, because the embedded database (PGlite) can be opened by one process at a time.
import { openDatabase } from "../db/client";
import { seedCatalogs } from "../db/seed/catalogs";
import { seedDemoOperator } from "../db/seed/demo";
import { prepareDemoChargers, type DemoCharger } from "./local-demo-chargers";
import { demoKnownPayments, prepareQrDemo, type QrDemo } from "./local-qr-demo";
import type { KnownPayment } from "./payments-emulator-model";
import { prepareArcaDemo, type ArcaDemo } from "./local-arca-demo";

export interface LocalSeedOptions {
  /** The data directory (PGlite lives under it when there is no databaseUrl). */
  dataDir: string;
  /** DATABASE_URL: the server runs on this PostgreSQL database, so the demo is seeded there. */
  databaseUrl?: string;
  firebaseUid: string;
  email: string;
  encryptionKey: string;
  /** Whether the launcher connects simulated chargers (`--no-sim` leaves them out). */
  sim: boolean;
}

export interface LocalSeed {
  businessId: string;
  qrDemo: QrDemo | null;
  /** The demo's online chargers the launcher keeps connected (none with `sim: false`). */
  demoChargers: DemoCharger[];
  /** The demo's session payments, for the payments emulator to know (it starts empty). */
  knownPayments: KnownPayment[];
  /** The demo operator's CUIT and ARCA certificate, for the ARCA emulator to trust. */
  arcaDemo: ArcaDemo | null;
}

export async function seedLocalDatabase(opts: LocalSeedOptions): Promise<LocalSeed> {
  const database = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir });
  try {
    await seedCatalogs(database.db);
    const seeded = await seedDemoOperator(database.db, { firebaseUid: opts.firebaseUid, email: opts.email });
    // One demo station takes QR payments, paid through the emulator, at a simulated charger.
    const qrDemo = opts.sim ? await prepareQrDemo(database.db, { businessId: seeded.businessId, encryptionKey: opts.encryptionKey }) : null;
    const demoChargers = opts.sim ? await prepareDemoChargers(database.db, { businessId: seeded.businessId, exclude: qrDemo ? [qrDemo.ocppIdentity] : [] }) : [];
    const knownPayments = await demoKnownPayments(database.db, seeded.businessId);
    const arcaDemo = await prepareArcaDemo(database.db, { businessId: seeded.businessId, encryptionKey: opts.encryptionKey, dataDir: opts.dataDir });
    return { businessId: seeded.businessId, qrDemo, demoChargers, knownPayments, arcaDemo };
  } finally {
    await database.close();
  }
}
