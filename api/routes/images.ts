// Pictures: profile photo, station photos, and the public content-addressed URLs.
// Rules on the server too: JPEG/PNG/GIF by content, at most 800 KB. No SVG, ever.
import { createHash } from "node:crypto";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Db } from "#db/client";
import { businessUsers, images, stations } from "#db/schema";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { readJson } from "../http";
import { DEFAULT_IMAGE_LIMITS, imageQuotaMessage, withinQuota, type ImageLimits } from "../image-quota";
import { IMAGE_MIME_BY_EXT, imageSize, MAX_IMAGE_BYTES, sizeAllowed, sniffImage } from "#domain/image-sniff";
import { ApiError, notFound, problemResponse, problemType } from "../problem";
import { deleteProfilePictureSchema } from "#contract/schemas/business";
import { MSG } from "#contract/schemas/messages";

export const IMAGE_URL_RE = /^\/api\/images\/([0-9a-f]{64})\.(jpg|png|gif)$/;
const FIELD = "Image";
const MULTIPART_SLACK = 64 * 1024;

function tooLarge() {
  return new ApiError(413, "payload-too-large", MSG.imageTooLarge, { errors: { [FIELD]: [MSG.imageTooLarge] } });
}

const limitUpload = bodyLimit({
  maxSize: MAX_IMAGE_BYTES + MULTIPART_SLACK,
  onError: (c) =>
    problemResponse(
      { type: problemType("payload-too-large"), title: MSG.imageTooLarge, status: 413, errors: { [FIELD]: [MSG.imageTooLarge] } },
      { "X-Request-Id": (c as Ctx).get("requestId") ?? "" },
    ),
});

/** Reads the multipart field `Image` and checks it: size first, then type by magic bytes, then the picture's declared size. */
async function readUpload(c: Ctx): Promise<{ bytes: Buffer; mime: string; ext: string }> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError(415, "unsupported-media-type", "Enviá la imagen como multipart/form-data en el campo Image.", {
      errors: { [FIELD]: ["Elegí una imagen."] },
    });
  }
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new ApiError(400, "validation", MSG.imageUnreadable, { errors: { [FIELD]: [MSG.imageUnreadable] } });
  }
  const file = form.get(FIELD) ?? form.get("image");
  if (!file || typeof file === "string") {
    throw new ApiError(422, "validation", "Elegí una imagen.", { errors: { [FIELD]: ["Elegí una imagen."] } });
  }
  if (file.size > MAX_IMAGE_BYTES) throw tooLarge();
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.length === 0) throw new ApiError(422, "validation", MSG.imageUnreadable, { errors: { [FIELD]: [MSG.imageUnreadable] } });
  const kind = sniffImage(bytes);
  if (!kind) throw new ApiError(422, "validation", MSG.imageFormat, { errors: { [FIELD]: [MSG.imageFormat] } });
  const size = imageSize(bytes, kind);
  if (!size) throw new ApiError(422, "validation", MSG.imageUnreadable, { errors: { [FIELD]: [MSG.imageUnreadable] } });
  if (!sizeAllowed(size)) throw new ApiError(422, "validation", MSG.imageDimensions, { errors: { [FIELD]: [MSG.imageDimensions] } });
  return { bytes, mime: kind.mime, ext: kind.ext };
}

/**
 * Stores the bytes for the business (deduplicated by hash) and returns their URL. Storing bytes
 * the company already has only restarts their grace period; new ones must fit its quota.
 * `replacing`: the URL of an image this request releases right after (a profile photo replaced).
 */
export async function storeImage(
  db: Db,
  businessId: string,
  img: { bytes: Buffer; mime: string; ext: string },
  limits: ImageLimits,
  replacing?: string | null,
): Promise<string> {
  const sha256 = createHash("sha256").update(img.bytes).digest("hex");
  await db.transaction(async (tx) => {
    // One upload at a time per company: the quota counts what is already there.
    await tx.select({ id: businessUsers.id }).from(businessUsers).where(eq(businessUsers.id, businessId)).for("update");
    const again = await tx
      .update(images)
      .set({ updatedAt: new Date() })
      .where(and(eq(images.businessId, businessId), eq(images.sha256, sha256)))
      .returning({ id: images.id });
    if (again.length > 0) return;
    const except = replacing ? IMAGE_URL_RE.exec(replacing)?.[1] : undefined;
    if (!(await withinQuota(tx, businessId, img.bytes.length, limits, except))) {
      const message = imageQuotaMessage(limits);
      throw new ApiError(422, "validation", message, { errors: { [FIELD]: [message] } });
    }
    await tx.insert(images).values({ businessId, sha256, mime: img.mime, bytes: img.bytes, size: img.bytes.length }).onConflictDoNothing();
  });
  return `/api/images/${sha256}.${img.ext}`;
}

/** Deletes the business's stored image behind `url` unless its profile or a station still uses it. */
export async function releaseImage(db: Db, businessId: string, url: string | null | undefined): Promise<void> {
  const m = url ? IMAGE_URL_RE.exec(url) : null;
  if (!m || !url) return;
  const [profileUse] = await db
    .select({ n: sql<number>`1` })
    .from(businessUsers)
    .where(and(eq(businessUsers.id, businessId), eq(businessUsers.photoUrl, url)))
    .limit(1);
  const [stationUse] = await db
    .select({ n: sql<number>`1` })
    .from(stations)
    .where(and(eq(stations.businessId, businessId), eq(stations.photoUrl, url)))
    .limit(1);
  if (profileUse || stationUse) return;
  await db.delete(images).where(and(eq(images.businessId, businessId), eq(images.sha256, m[1])));
}

/** Whether `url` is one of this business's stored images (or a shared one). */
export async function ownsImage(db: Db, businessId: string, url: string): Promise<boolean> {
  const m = IMAGE_URL_RE.exec(url);
  if (!m) return false;
  const [row] = await db
    .select({ mime: images.mime })
    .from(images)
    .where(and(eq(images.sha256, m[1]), or(eq(images.businessId, businessId), isNull(images.businessId))))
    .limit(1);
  return !!row && row.mime === IMAGE_MIME_BY_EXT[m[2]];
}

/** /Business/Images: the profile picture (any company status) and the back office's images (an ACTIVE company). */
export function imageRoutes({ db, imageLimits }: ApiServices) {
  const r = new Hono<AppEnv>();
  const limits = imageLimits ?? DEFAULT_IMAGE_LIMITS;

  // PATCH /Business/Images/ProfilePicture  (multipart, field Image, sent as image.jpg)
  r.patch("/ProfilePicture", limitUpload, async (c) => {
    const business = tenant(c);
    const upload = await readUpload(c);
    const photoUrl = await storeImage(db, business.id, upload, limits, business.photoUrl);
    const previous = business.photoUrl;
    await db.update(businessUsers).set({ photoUrl }).where(eq(businessUsers.id, business.id));
    if (previous && previous !== photoUrl) await releaseImage(db, business.id, previous);
    return c.json({ photoUrl });
  });

  // DELETE /Business/Images/ProfilePicture  { imageUrl }
  r.delete("/ProfilePicture", async (c) => {
    const business = tenant(c);
    const { imageUrl } = await readJson(c, deleteProfilePictureSchema);
    const isCurrent = business.photoUrl === imageUrl;
    if (!isCurrent && !(await ownsImage(db, business.id, imageUrl))) throw notFound("La imagen");
    if (isCurrent) await db.update(businessUsers).set({ photoUrl: null }).where(eq(businessUsers.id, business.id));
    await releaseImage(db, business.id, imageUrl);
    return c.json({ photoUrl: isCurrent ? null : business.photoUrl });
  });

  // POST /Business/Images  (multipart, field Image) — e.g. a station photo; returns its URL.
  r.post("/", limitUpload, async (c) => {
    const url = await storeImage(db, tenant(c).id, await readUpload(c), limits);
    return c.json({ url }, 201);
  });

  return r;
}

/** GET /api/images/:file — public, immutable (the name is the content hash). */
export function publicImageRoutes({ db }: ApiServices) {
  return new Hono<AppEnv>().get("/:file", async (c) => {
    const m = /^([0-9a-f]{64})\.(jpg|png|gif)$/.exec(c.req.param("file"));
    if (!m) throw notFound("La imagen");
    const [sha256, ext] = [m[1], m[2]];
    const mime = IMAGE_MIME_BY_EXT[ext];
    const etag = `"${sha256}"`;
    const headers: Record<string, string> = {
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    };
    const inm = c.req.header("if-none-match");
    if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      const [exists] = await db.select({ mime: images.mime }).from(images).where(eq(images.sha256, sha256)).limit(1);
      if (exists && exists.mime === mime) return c.body(null, 304, headers);
    }
    const [row] = await db.select({ mime: images.mime, bytes: images.bytes }).from(images).where(eq(images.sha256, sha256)).limit(1);
    // Serve only what the bytes really are, and only what an upload may be today (a picture
    // stored before its size was bounded is not handed to browsers to decode).
    const kind = row?.mime === mime ? sniffImage(row.bytes) : null;
    const size = row && kind?.mime === mime ? imageSize(row.bytes, kind) : null;
    if (!row || !size || !sizeAllowed(size)) throw notFound("La imagen");
    return c.body(new Uint8Array(row.bytes), 200, { ...headers, "Content-Type": mime, "Content-Length": String(row.bytes.length) });
  });
}
