// Local mode's ARCA demo: the demo operator is a Responsable Inscripto invoicing from point of
// sale 3 against the ARCA emulator, with a certificate made for its CUIT. The certificate and key
// are kept in the data directory (made once), so the emulator, which forgets on every start,
// registers the same certificate each time, as ARCA keeps the one it issued.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { businessUsers, fiscalSettings } from "../db/schema";
import { authorizedVouchers, seedDemoInvoices } from "../db/seed/demo-invoices";
import { pesos, yyyymmdd } from "../infra/arca/client";
import { readCertificate } from "../infra/arca/certificate";
import { sealFiscalSecret } from "../infra/arca/gateway";
import { createKeyRing } from "../infra/crypto";
import { makeArcaCertificate } from "./arca-test-certificates";
import type { ArcaVoucherRecord } from "./arca-emulator";

export const DEMO_POINT_OF_SALE = 3;

export interface ArcaDemo {
  cuit: string;
  certPem: string;
  /** Every voucher the database holds as authorised (the seeded history and any issued live since), for the emulator to know. */
  vouchers: ArcaVoucherRecord[];
}

export async function prepareArcaDemo(db: Db, opts: { businessId: string; encryptionKey: string; dataDir: string }): Promise<ArcaDemo | null> {
  const [company] = await db.select({ cuit: businessUsers.cuit }).from(businessUsers).where(eq(businessUsers.id, opts.businessId)).limit(1);
  if (!company?.cuit) return null;
  const dir = path.join(opts.dataDir, "arca");
  const certFile = path.join(dir, `${company.cuit}.crt`);
  const keyFile = path.join(dir, `${company.cuit}.key`);
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true });
    const made = makeArcaCertificate(company.cuit, { alias: "enchufa-demo" });
    writeFileSync(keyFile, made.keyPem, { mode: 0o600 });
    writeFileSync(certFile, made.certPem);
  }
  const certPem = readFileSync(certFile, "utf8");
  const keyPem = readFileSync(keyFile, "utf8");
  const info = readCertificate(certPem);
  const ring = createKeyRing(opts.encryptionKey.split(","));
  // Settings the operator already changed are kept; a missing row is filled.
  await db
    .insert(fiscalSettings)
    .values({
      businessId: opts.businessId,
      taxCondition: "RESPONSABLE_INSCRIPTO",
      pointOfSale: DEMO_POINT_OF_SALE,
      environment: "HOMOLOGACION",
      certificateEncrypted: sealFiscalSecret(ring, certPem, { businessId: opts.businessId, what: "certificate" }),
      keyEncrypted: sealFiscalSecret(ring, keyPem, { businessId: opts.businessId, what: "key" }),
      certificateCuit: info.cuit,
      certificateExpiresAt: info.notAfter,
      certificateFingerprint: info.fingerprint,
    })
    .onConflictDoNothing({ target: fiscalSettings.businessId });
  // The seeded history's vouchers, while the operator still invoices as the demo does.
  const [settings] = await db.select().from(fiscalSettings).where(eq(fiscalSettings.businessId, opts.businessId));
  if (settings?.taxCondition === "RESPONSABLE_INSCRIPTO") await seedDemoInvoices(db, { businessId: opts.businessId, pointOfSale: settings.pointOfSale });
  return { cuit: company.cuit, certPem, vouchers: await emulatorVouchers(db, opts.businessId, company.cuit) };
}

/**
 * The company's authorised vouchers as the emulator records them (amounts in pesos, dates YYYYMMDD),
 * with the detail FECompConsultar answers, so a recovered voucher agrees with the stored one.
 */
async function emulatorVouchers(db: Db, businessId: string, cuit: string): Promise<ArcaVoucherRecord[]> {
  return (await authorizedVouchers(db, businessId))
    .filter((v) => v.type !== null && v.pointOfSale !== null && v.number !== null)
    .map((v) => ({
      cuit,
      pointOfSale: v.pointOfSale!,
      type: v.type!,
      number: v.number!,
      cae: v.cae ?? "",
      caeDueDate: yyyymmdd(v.caeDueDate ?? ""),
      total: pesos(v.totalCents),
      at: (v.authorizedAt ?? new Date(0)).toISOString(),
      detail: {
        concept: "2",
        docType: v.receiverDocType,
        docNumber: v.receiverDocNumber,
        issueDate: yyyymmdd(v.issueDate),
        totConc: "0",
        net: pesos(v.netCents),
        exempt: pesos(v.exemptCents),
        trib: "0",
        vat: pesos(v.vatCents),
      },
    }));
}
