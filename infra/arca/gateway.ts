// Invoicing's door to ARCA per company (InvoicingGateway): its fiscal settings from the database
// and an ARCA client built with its own certificate and key, opened from the key ring. Which
// URLs: ARCA_WSAA_URL / ARCA_WSFE_URL when set (local mode's emulator, a proxy), otherwise
// ARCA's own for the company's environment (homologation or production).
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { businessUsers, fiscalSettings, type FiscalSettingsRow } from "../../db/schema";
import type { ArcaEnvironment, FiscalSettings, InvoicingGateway } from "../../domain/arca-port";
import type { KeyRing } from "../crypto";
import { ARCA_URLS, createArcaClient, type ArcaSoapClient, type TicketStore } from "./client";
import { dbTicketStore } from "./ticket-store";

export interface ArcaConfig {
  wsaaUrl?: string;
  wsfeUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Where WSAA tickets are kept; by default the database (sealed), shared by restarts and nodes. */
  tickets?: TicketStore;
}

export function arcaUrls(config: ArcaConfig, environment: ArcaEnvironment): { wsaa: string; wsfe: string } {
  return { wsaa: config.wsaaUrl ?? ARCA_URLS[environment].wsaa, wsfe: config.wsfeUrl ?? ARCA_URLS[environment].wsfe };
}

// The certificate and key are sealed bound to their company and role (AAD): a ciphertext
// copied to another company's row, or the key's into the certificate's column, does not open.
export function sealFiscalSecret(ring: KeyRing, plain: string, ctx: { businessId: string; what: "certificate" | "key" }): string {
  return ring.encrypt(plain, `fiscal:${ctx.businessId}:${ctx.what}`);
}

export function openFiscalSecret(ring: KeyRing, sealed: string, ctx: { businessId: string; what: "certificate" | "key" }): string {
  return ring.decrypt(sealed, `fiscal:${ctx.businessId}:${ctx.what}`);
}

/** The ARCA client for a settings row with its certificate and the company's CUIT, or null without a certificate. */
export function arcaClientFor(row: FiscalSettingsRow, cuit: string, deps: { db: Db; keyRing: KeyRing; config: ArcaConfig }): ArcaSoapClient | null {
  if (!row.certificateEncrypted || !row.keyEncrypted) return null;
  const urls = arcaUrls(deps.config, row.environment);
  return createArcaClient({
    cuit,
    certPem: openFiscalSecret(deps.keyRing, row.certificateEncrypted, { businessId: row.businessId, what: "certificate" }),
    keyPem: openFiscalSecret(deps.keyRing, row.keyEncrypted, { businessId: row.businessId, what: "key" }),
    wsaaUrl: urls.wsaa,
    wsfeUrl: urls.wsfe,
    fetch: deps.config.fetch,
    timeoutMs: deps.config.timeoutMs,
    tickets: deps.config.tickets ?? dbTicketStore(deps.db, deps.keyRing),
  });
}

export function createInvoicingGateway(deps: { db: Db; keyRing: KeyRing; config: ArcaConfig }): InvoicingGateway {
  const load = async (companyId: string) => {
    const [row] = await deps.db
      .select({ settings: fiscalSettings, cuit: businessUsers.cuit })
      .from(fiscalSettings)
      .innerJoin(businessUsers, eq(businessUsers.id, fiscalSettings.businessId))
      .where(eq(fiscalSettings.businessId, companyId))
      .limit(1);
    return row?.cuit ? { settings: row.settings, cuit: row.cuit } : null;
  };
  return {
    async fiscalSettings(companyId): Promise<FiscalSettings | null> {
      const row = await load(companyId);
      if (!row) return null;
      const s = row.settings;
      return { companyId, cuit: row.cuit, taxCondition: s.taxCondition, pointOfSale: s.pointOfSale, environment: s.environment };
    },
    async arcaFor(companyId) {
      const row = await load(companyId);
      return row ? arcaClientFor(row.settings, row.cuit, deps) : null;
    },
  };
}
