// What a company may keep in `images`, and what is collected when nothing uses it (ADR 0028).
// Uploads are public as soon as they are stored (the URL is the content hash), so they are
// bounded per company — count and bytes, every image of the company, attached or not — and an
// upload no profile or station points at is deleted after a grace period, time enough for the
// form that uploaded it to be saved.
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#db/client";
import { images } from "#db/schema";
import type { Logger } from "#infra/logger";
import { queryRows } from "#infra/sql";

export interface ImageLimits {
  /** Images a company may have stored (IMAGES_PER_COMPANY). */
  maxCount: number;
  /** Bytes they may add up to (IMAGES_MB_PER_COMPANY × 1 MiB). */
  maxBytes: number;
  /** How long an upload nothing references is kept (UNREFERENCED_IMAGE_HOURS). */
  graceMs: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxCount: 200, maxBytes: 100 * 1024 * 1024, graceMs: 24 * 60 * 60_000 };

/** How often each node collects unreferenced uploads (deleting twice is harmless). */
export const IMAGE_SWEEP_INTERVAL_MS = 15 * 60_000;

export function imageQuotaMessage(limits: ImageLimits): string {
  const mib = limits.maxBytes / (1024 * 1024);
  const size = mib >= 1 ? `${Math.round(mib)} MB` : `${Math.round(limits.maxBytes / 1024)} KB`;
  const hours = Math.round(limits.graceMs / 3_600_000);
  return `Tu empresa llegó al máximo de imágenes guardadas (${limits.maxCount} o ${size}). Quitá fotos que no uses; las que subiste y no usaste se borran solas a las ${hours} horas.`;
}

/**
 * Whether the company may store one more image of `size` bytes (run inside the transaction that
 * inserts it, after locking the company's row, so two uploads at once cannot both take the last
 * place). `except`: the hash of an image the same request releases (a profile photo replaced).
 */
export async function withinQuota(db: Db, businessId: string, size: number, limits: ImageLimits, except?: string): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(${images.size}), 0)::bigint` })
    .from(images)
    .where(and(eq(images.businessId, businessId), except ? ne(images.sha256, except) : undefined));
  return Number(row.n) + 1 <= limits.maxCount && Number(row.bytes) + size <= limits.maxBytes;
}

/**
 * Deletes every company image older than the grace period (since its last upload) that neither
 * the company's profile nor any of its stations points at. Shared images (no company) stay.
 * One statement: an image attached meanwhile is not deleted. Returns how many went.
 */
export async function sweepUnreferencedImages(db: Db, now: Date, graceMs: number): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs).toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from images i
      where i.business_id is not null and i.updated_at < ${cutoff}::timestamptz
        and not exists (select 1 from business_users b where b.id = i.business_id and b.photo_url like '/api/images/' || i.sha256 || '.%')
        and not exists (select 1 from stations s where s.business_id = i.business_id and s.photo_url like '/api/images/' || i.sha256 || '.%')
      returning i.id`,
  );
  return rows.length;
}

/** Sweeps every `intervalMs` on this node (errors are logged; the next sweep tries again). */
export function startImageSweep(db: Db, logger: Logger, graceMs: number, intervalMs = IMAGE_SWEEP_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepUnreferencedImages(db, new Date(), graceMs)
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, "imágenes sin usar borradas");
      })
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "imágenes: falló el barrido de las no usadas"))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
