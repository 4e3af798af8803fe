// Retiring an encryption key (ENCRYPTION_KEY rotation): after a new key is put first in
// ENCRYPTION_KEY (the old ones still listed, so everything decrypts), this re-seals every stored
// secret with the new key: payment credentials, the ARCA certificates and keys, roaming partners'
// tokens and ARCA's access tickets. Once it reports nothing left under an old key, the old key can
// be removed from ENCRYPTION_KEY; a kind of secret left out here would be lost with it.
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { arcaAccessTickets, fiscalSettings, ocpiPartners, paymentAccounts } from "../db/schema";
import { needsReencryption, openPaymentCredentials, sealPaymentCredentials, type KeyRing } from "../infra/crypto";
import { openFiscalSecret, sealFiscalSecret } from "../infra/arca/gateway";
import { openTicketSecret, sealTicketSecret } from "../infra/arca/ticket-store";
import { openPartnerToken, sealPartnerToken } from "../ocpi/tokens";

export interface ReencryptionReport {
  /** Secrets looked at. */
  checked: number;
  /** Re-sealed with the ring's first key in this run. */
  reencrypted: number;
  /** Secrets none of the configured keys opens (left unchanged): what they are and their row. */
  failed: { what: string; id: string }[];
}

/** One stored secret: its row, how it opens and seals (bound to what it belongs to), how it is written back. */
interface SealedSecret {
  id: string;
  sealed: string;
  open(ring: KeyRing): string;
  seal(ring: KeyRing, plain: string): string;
  /** Writes the re-sealed value only if the stored one is still `sealed`: a secret changed meanwhile is already under the current key. */
  replace(db: Db, next: string): Promise<boolean>;
}

/** Every kind of sealed secret the database holds, named as the report names them. */
const SEALED_KINDS: { what: string; list(db: Db): Promise<SealedSecret[]> }[] = [
  {
    what: "credenciales de pago",
    async list(db) {
      const rows = await db.select({ id: paymentAccounts.id, businessId: paymentAccounts.businessId, provider: paymentAccounts.provider, sealed: paymentAccounts.credentialsEncrypted }).from(paymentAccounts);
      return rows.map((row) => {
        const ctx = { businessId: row.businessId, provider: row.provider };
        return {
          id: row.id,
          sealed: row.sealed,
          open: (ring) => openPaymentCredentials(ring, row.sealed, ctx),
          seal: (ring, plain) => sealPaymentCredentials(ring, plain, ctx),
          // (updated_at kept: re-sealing is not a change the operator made.)
          replace: async (db, next) =>
            (await db.update(paymentAccounts).set({ credentialsEncrypted: next, updatedAt: sql`${paymentAccounts.updatedAt}` }).where(and(eq(paymentAccounts.id, row.id), eq(paymentAccounts.credentialsEncrypted, row.sealed))).returning({ id: paymentAccounts.id })).length > 0,
        };
      });
    },
  },
  {
    what: "certificados y claves de ARCA",
    async list(db) {
      const rows = await db.select({ id: fiscalSettings.id, businessId: fiscalSettings.businessId, certificate: fiscalSettings.certificateEncrypted, key: fiscalSettings.keyEncrypted }).from(fiscalSettings);
      return rows.flatMap((row) =>
        (["certificate", "key"] as const).flatMap((what): SealedSecret[] => {
          const sealed = row[what];
          if (!sealed) return [];
          const ctx = { businessId: row.businessId, what };
          const column = what === "certificate" ? "certificateEncrypted" : "keyEncrypted";
          return [
            {
              id: `${row.id}:${what}`,
              sealed,
              open: (ring) => openFiscalSecret(ring, sealed, ctx),
              seal: (ring, plain) => sealFiscalSecret(ring, plain, ctx),
              replace: async (db, next) =>
                (await db.update(fiscalSettings).set({ [column]: next }).where(and(eq(fiscalSettings.id, row.id), eq(fiscalSettings[column], sealed))).returning({ id: fiscalSettings.id })).length > 0,
            },
          ];
        }),
      );
    },
  },
  {
    what: "tokens de roaming",
    async list(db) {
      const rows = await db.select({ id: ocpiPartners.id, businessId: ocpiPartners.businessId, sealed: ocpiPartners.outgoingTokenEncrypted }).from(ocpiPartners).where(isNotNull(ocpiPartners.outgoingTokenEncrypted));
      return rows.map((row) => {
        const sealed = row.sealed!;
        const ctx = { businessId: row.businessId, partnerId: row.id };
        return {
          id: row.id,
          sealed,
          open: (ring) => openPartnerToken(ring, sealed, ctx),
          seal: (ring, plain) => sealPartnerToken(ring, plain, ctx),
          replace: async (db, next) =>
            (await db.update(ocpiPartners).set({ outgoingTokenEncrypted: next }).where(and(eq(ocpiPartners.id, row.id), eq(ocpiPartners.outgoingTokenEncrypted, sealed))).returning({ id: ocpiPartners.id })).length > 0,
        };
      });
    },
  },
  {
    // WSAA refuses a second ticket while one is valid: one that no longer opened would pause invoicing until it expired.
    what: "tickets de acceso de ARCA",
    async list(db) {
      const rows = await db.select({ key: arcaAccessTickets.key, sealed: arcaAccessTickets.ticketSealed }).from(arcaAccessTickets).where(isNotNull(arcaAccessTickets.ticketSealed));
      return rows.map((row) => {
        const sealed = row.sealed!;
        return {
          id: row.key,
          sealed,
          open: (ring) => openTicketSecret(ring, row.key, sealed),
          seal: (ring, plain) => sealTicketSecret(ring, row.key, plain),
          replace: async (db, next) =>
            (await db.update(arcaAccessTickets).set({ ticketSealed: next }).where(and(eq(arcaAccessTickets.key, row.key), eq(arcaAccessTickets.ticketSealed, sealed))).returning({ key: arcaAccessTickets.key })).length > 0,
        };
      });
    },
  },
];

export async function reencryptSecrets(db: Db, ring: KeyRing): Promise<ReencryptionReport> {
  const report: ReencryptionReport = { checked: 0, reencrypted: 0, failed: [] };
  for (const kind of SEALED_KINDS) {
    for (const secret of await kind.list(db)) {
      report.checked++;
      if (!needsReencryption(ring, secret.sealed)) continue;
      let plain: string;
      try {
        plain = secret.open(ring);
      } catch {
        report.failed.push({ what: kind.what, id: secret.id });
        continue;
      }
      if (await secret.replace(db, secret.seal(ring, plain))) report.reencrypted++;
    }
  }
  return report;
}
