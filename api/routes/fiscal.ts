// The company's fiscal settings for ARCA electronic invoices (/Business/Fiscal) and "Probar
// conexión" (/Business/Fiscal/Test). The certificate and key are checked when uploaded (readable,
// current, issued to the company's CUIT, matching each other), sealed with the key ring, and
// never returned: the answer says only the certificate's CUIT, expiry and fingerprint.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { fiscalSettings, type FiscalSettingsRow } from "#db/schema";
import { CERTIFICATE_WARNING_DAYS } from "#domain/fiscal-certificate";
import { readCertificate } from "#infra/arca/certificate";
import { certificateProblem, testConnection } from "#infra/arca/connection-test";
import { arcaClientFor, openFiscalSecret, sealFiscalSecret } from "#infra/arca/gateway";
import { fiscalSettingsSchema } from "#contract/schemas/fiscal";
import type { FiscalSettingsDto, FiscalTestDto } from "#contract/dto";
import { tenant, type ApiServices, type AppEnv } from "../env";
import { readJson } from "../http";
import { conflict, fieldError } from "../problem";

export function toFiscalDto(row: FiscalSettingsRow | undefined, companyCuit: string | null, now: Date): FiscalSettingsDto {
  if (!row) return { configured: false, companyCuit, taxCondition: null, pointOfSale: null, environment: "HOMOLOGACION", certificate: null, lastTest: null, updatedAt: null };
  const expiresAt = row.certificateExpiresAt;
  const left = expiresAt ? expiresAt.getTime() - now.getTime() : null;
  return {
    configured: Boolean(row.certificateEncrypted),
    companyCuit,
    taxCondition: row.taxCondition,
    pointOfSale: row.pointOfSale,
    environment: row.environment,
    certificate: row.certificateEncrypted
      ? {
          cuit: row.certificateCuit ?? null,
          expiresAt: expiresAt?.toISOString() ?? null,
          fingerprint: row.certificateFingerprint ?? null,
          expiresSoon: left !== null && left < CERTIFICATE_WARNING_DAYS * 86_400_000,
          expired: left !== null && left < 0,
        }
      : null,
    lastTest: row.lastTestAt && row.lastTestOk !== null ? { at: row.lastTestAt.toISOString(), ok: row.lastTestOk, message: row.lastTestMessage ?? "" } : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function fiscalRoutes(services: ApiServices) {
  const { db, keyRing } = services;
  const r = new Hono<AppEnv>();
  const current = async (businessId: string) => (await db.select().from(fiscalSettings).where(eq(fiscalSettings.businessId, businessId)).limit(1))[0];

  r.get("/", async (c) => {
    const b = tenant(c);
    return c.json(toFiscalDto(await current(b.id), b.cuit ?? null, services.now()));
  });

  r.put("/", async (c) => {
    const b = tenant(c);
    const input = await readJson(c, fiscalSettingsSchema);
    const before = await current(b.id);
    const values: Partial<typeof fiscalSettings.$inferInsert> = { taxCondition: input.taxCondition, pointOfSale: input.pointOfSale, environment: input.environment };
    if (input.certificate && input.privateKey) {
      if (!b.cuit) throw fieldError("certificate", "La empresa no tiene CUIT en su perfil: completalo antes de subir el certificado.");
      const problem = certificateProblem(input.certificate, input.privateKey, b.cuit, services.now());
      if (problem) throw fieldError(/clave privada/i.test(problem) && !/certificado es del/.test(problem) ? "privateKey" : "certificate", problem);
      const info = readCertificate(input.certificate);
      Object.assign(values, {
        certificateEncrypted: sealFiscalSecret(keyRing, input.certificate, { businessId: b.id, what: "certificate" }),
        keyEncrypted: sealFiscalSecret(keyRing, input.privateKey, { businessId: b.id, what: "key" }),
        certificateCuit: info.cuit,
        certificateExpiresAt: info.notAfter,
        certificateFingerprint: info.fingerprint,
        expiryWarnedAt: null,
        lastTestAt: null,
        lastTestOk: null,
        lastTestMessage: null,
      });
    } else if (!before?.certificateEncrypted) {
      throw fieldError("certificate", "Subí el certificado y la clave privada que generaste para ARCA.");
    }
    const [row] = await db
      .insert(fiscalSettings)
      .values({ businessId: b.id, taxCondition: input.taxCondition, pointOfSale: input.pointOfSale, environment: input.environment, ...values })
      .onConflictDoUpdate({ target: fiscalSettings.businessId, set: { ...values, updatedAt: services.now() } })
      .returning();
    return c.json(toFiscalDto(row, b.cuit ?? null, services.now()));
  });

  r.post("/Test", async (c) => {
    const b = tenant(c);
    const row = await current(b.id);
    if (!row?.certificateEncrypted || !row.keyEncrypted || !b.cuit) throw conflict("Primero guardá la configuración con el certificado y la clave.");
    const client = arcaClientFor(row, b.cuit, { db, keyRing, config: services.arca });
    const result: FiscalTestDto = await testConnection({
      client: client!,
      certPem: openFiscalSecret(keyRing, row.certificateEncrypted, { businessId: b.id, what: "certificate" }),
      keyPem: openFiscalSecret(keyRing, row.keyEncrypted, { businessId: b.id, what: "key" }),
      cuit: b.cuit,
      pointOfSale: row.pointOfSale,
      now: services.now(),
    });
    await db.update(fiscalSettings).set({ lastTestAt: services.now(), lastTestOk: result.ok, lastTestMessage: result.message }).where(eq(fiscalSettings.businessId, b.id));
    return c.json(result);
  });

  return r;
}
