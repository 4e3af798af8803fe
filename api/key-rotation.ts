// Retiring an encryption key (ENCRYPTION_KEY rotation): after a new key is put first
// in ENCRYPTION_KEY (the old ones still listed, so everything decrypts), this re-seals every
// stored payment credential with the new key. Once it reports nothing left under an old key,
// the old key can be removed from ENCRYPTION_KEY.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentAccounts } from "../db/schema";
import { needsReencryption, openPaymentCredentials, sealPaymentCredentials, type KeyRing } from "../infra/crypto";

export interface ReencryptionReport {
  /** Credentials looked at. */
  checked: number;
  /** Re-sealed with the ring's first key in this run. */
  reencrypted: number;
  /** Ids of accounts whose credentials none of the configured keys opens (left unchanged). */
  failed: string[];
}

export async function reencryptPaymentCredentials(db: Db, ring: KeyRing): Promise<ReencryptionReport> {
  const rows = await db
    .select({ id: paymentAccounts.id, businessId: paymentAccounts.businessId, provider: paymentAccounts.provider, sealed: paymentAccounts.credentialsEncrypted })
    .from(paymentAccounts);
  const report: ReencryptionReport = { checked: rows.length, reencrypted: 0, failed: [] };
  for (const row of rows) {
    if (!needsReencryption(ring, row.sealed)) continue;
    const ctx = { businessId: row.businessId, provider: row.provider };
    let plain: string;
    try {
      plain = openPaymentCredentials(ring, row.sealed, ctx);
    } catch {
      report.failed.push(row.id);
      continue;
    }
    // Only if nobody changed the credentials meanwhile (the operator may reconnect the account
    // while this runs): their new value is already sealed with the current key.
    const updated = await db
      .update(paymentAccounts)
      // (updated_at kept: re-sealing is not a change the operator made.)
      .set({ credentialsEncrypted: sealPaymentCredentials(ring, plain, ctx), updatedAt: sql`${paymentAccounts.updatedAt}` })
      .where(and(eq(paymentAccounts.id, row.id), eq(paymentAccounts.credentialsEncrypted, row.sealed)))
      .returning({ id: paymentAccounts.id });
    if (updated.length > 0) report.reencrypted++;
  }
  return report;
}
