// Images a company may keep (api/image-quota.ts, ADR 0028): a quota by count and by bytes over
// every image it has stored, and uploads no profile or station uses collected after a grace period
// by a sweep each node runs.
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageQuotaMessage, startImageSweep, sweepUnreferencedImages, type ImageLimits } from "#api/image-quota";
import { images } from "#db/schema";
import { pngOf } from "../unit/api/image-fixtures";
import { createTenant, expectProblem, expectStatus, imageForm, openHarness, stationInput, testBackends, type Harness, type Tenant } from "./helpers";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const HOUR = 3_600_000;
const LIMITS: ImageLimits = { maxCount: 3, maxBytes: 4000, graceMs: 24 * HOUR };
/** A distinct small PNG per n (the header differs), padded to `size` bytes. */
const png = (n: number, size = 100) => Buffer.concat([pngOf(n, 1), Buffer.alloc(Math.max(0, size - 33))]);

describe.each(testBackends())("image quota and unreferenced uploads ($name)", (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend, { imageLimits: LIMITS });
  });
  afterAll(() => h?.close());

  const post = (t: Tenant, bytes: Buffer) => h.call("POST", "/Business/Images", { token: t.token, body: imageForm(bytes) });
  const profile = (t: Tenant, bytes: Buffer) => h.call("PATCH", "/Business/Images/ProfilePicture", { token: t.token, body: imageForm(bytes) });
  const count = async (t: Tenant) => (await h.db.select({ id: images.id }).from(images).where(eq(images.businessId, t.businessId))).length;
  /** Makes the company's images look uploaded `hours` ago. */
  const age = (t: Tenant, hours: number) => h.db.execute(sql`update images set updated_at = now() - make_interval(hours => ${hours}) where business_id = ${t.businessId}::uuid`);

  it("a company keeps at most its count of images; the same bytes again and another company are not held back", async () => {
    const t = await createTenant(h, "quota-count");
    const other = await createTenant(h, "quota-count-other");
    for (let i = 1; i <= 3; i++) await expectStatus(await post(t, png(i)), 201);
    const p = await expectProblem(await post(t, png(4)), 422);
    expect(p.title).toBe(imageQuotaMessage(LIMITS));
    expect(p.title).toBe("Tu empresa llegó al máximo de imágenes guardadas (3 o 4 KB). Quitá fotos que no uses; las que subiste y no usaste se borran solas a las 24 horas.");
    expect(p.errors).toEqual({ Image: [p.title] });
    expect(await count(t)).toBe(3);
    // Bytes it already has: nothing new is stored.
    await expectStatus(await post(t, png(2)), 201);
    await expectStatus(await post(other, png(4)), 201);
  });

  it("a company's images add up to at most its bytes", async () => {
    const t = await createTenant(h, "quota-bytes");
    await expectStatus(await post(t, png(1, 3000)), 201);
    await expectProblem(await post(t, png(2, 1001)), 422);
    await expectStatus(await post(t, png(3, 1000)), 201);
  });

  it("replacing the profile photo at the quota works: the photo it replaces does not count", async () => {
    const t = await createTenant(h, "quota-profile");
    await expectStatus(await profile(t, png(1)), 200);
    await expectStatus(await post(t, png(2)), 201);
    await expectStatus(await post(t, png(3)), 201);
    const { photoUrl } = await expectStatus(await profile(t, png(4)), 200);
    expect(photoUrl).toBe(`/api/images/${sha(png(4))}.png`);
    expect(await count(t)).toBe(3);
    await expectProblem(await post(t, png(5)), 422);
  });

  it("the sweep deletes uploads nothing uses once past the grace period; the profile's, a station's, recent and shared ones stay", async () => {
    const t = await createTenant(h, "sweep");
    const [profilePng, stationPng, unusedPng] = [png(11), png(12), png(13)];
    const { photoUrl } = await expectStatus(await profile(t, profilePng), 200);
    const { url: stationUrl } = await expectStatus(await post(t, stationPng), 201);
    await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name: "Con foto", photoUrl: stationUrl }) }), 201);
    await expectStatus(await post(t, unusedPng), 201);
    const shared = png(14);
    await h.db.insert(images).values({ businessId: null, sha256: sha(shared), mime: "image/png", bytes: shared, size: shared.length });
    await age(t, 25);
    await h.db.execute(sql`update images set updated_at = now() - interval '30 days' where business_id is null`);

    const deletedNow = await sweepUnreferencedImages(h.db, new Date(), LIMITS.graceMs);
    expect(deletedNow).toBeGreaterThanOrEqual(1);
    const left = (await h.db.select({ sha256: images.sha256 }).from(images).where(eq(images.businessId, t.businessId))).map((r) => r.sha256).sort();
    expect(left).toEqual([sha(profilePng), sha(stationPng)].sort());
    expect((await h.call("GET", photoUrl.replace(/^\/api/, ""))).status).toBe(200);
    await expectProblem(await h.call("GET", `/images/${sha(unusedPng)}.png`), 404);
    expect(await h.db.select({ id: images.id }).from(images).where(eq(images.sha256, sha(shared)))).toHaveLength(1);

    // Within the grace period nothing goes; uploading the same bytes again restarts it.
    const recent = png(15);
    await expectStatus(await post(t, recent), 201);
    await age(t, 23);
    expect(await sweepUnreferencedImages(h.db, new Date(), LIMITS.graceMs)).toBe(0);
    await age(t, 25);
    await expectStatus(await post(t, recent), 201);
    expect(await sweepUnreferencedImages(h.db, new Date(), LIMITS.graceMs)).toBe(0);
    expect(await count(t)).toBe(3);
  });

  it("runs by itself every interval, and its place frees the quota", async () => {
    const t = await createTenant(h, "sweep-timer");
    for (let i = 21; i <= 23; i++) await expectStatus(await post(t, png(i)), 201);
    await expectProblem(await post(t, png(24)), 422);
    await age(t, 25);
    const logs: object[] = [];
    const logger = { info: (o: object) => logs.push(o), warn: () => {}, error: (o: object) => logs.push(o) };
    const stop = startImageSweep(h.db, logger, LIMITS.graceMs, 50);
    try {
      await expect.poll(() => count(t), { timeout: 5_000 }).toBe(0);
    } finally {
      stop();
    }
    expect(logs.some((o) => "deleted" in o)).toBe(true);
    await expectStatus(await post(t, png(24)), 201);
  });
});
