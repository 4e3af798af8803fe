// Profile picture upload/removal and the public content-addressed image URLs.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { images } from "#db/schema";
import {
  createTenant,
  expectProblem,
  expectStatus,
  GIF_1x1,
  imageForm,
  JPEG_MIN,
  openHarness,
  PNG_1x1,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";
import { gifOf, jpegOf, pngOf } from "../unit/api/image-fixtures";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe.each(testBackends())("images ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "img-owner");
    other = await createTenant(h, "img-other");
  });
  afterAll(() => h?.close());

  const upload = (token: string, form: FormData) => h.call("PATCH", "/Business/Images/ProfilePicture", { token, body: form });

  it("accepts a PNG sent as image.jpg (type by content), stores it and sets photoUrl", async () => {
    const body = await expectStatus(await upload(t.token, imageForm(PNG_1x1, "image.jpg", "image/jpeg")), 200);
    expect(body).toEqual({ photoUrl: `/api/images/${sha(PNG_1x1)}.png` });
    const profile = await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: t.token }), 200);
    expect(profile.photoUrl).toBe(body.photoUrl);
    const rows = await h.db.select({ mime: images.mime, size: images.size }).from(images).where(eq(images.sha256, sha(PNG_1x1)));
    expect(rows).toEqual([{ mime: "image/png", size: PNG_1x1.length }]);
  });

  it("serves the bytes publicly with the sniffed type and immutable caching", async () => {
    const res = await h.call("GET", `/images/${sha(PNG_1x1)}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBe(`"${sha(PNG_1x1)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_1x1)).toBe(true);

    const again = await h.call("GET", `/images/${sha(PNG_1x1)}.png`, { headers: { "If-None-Match": `"${sha(PNG_1x1)}"` } });
    expect(again.status).toBe(304);
  });

  it("does not serve an image under another extension, or names that are not hashes", async () => {
    await expectProblem(await h.call("GET", `/images/${sha(PNG_1x1)}.jpg`), 404);
    await expectProblem(await h.call("GET", `/images/${sha(PNG_1x1)}.svg`), 404);
    await expectProblem(await h.call("GET", `/images/../../etc/passwd`), 404);
    await expectProblem(await h.call("GET", `/images/${"f".repeat(64)}.png`), 404);
  });

  it("accepts GIF and JPEG, replacing the previous photo (the old bytes are released)", async () => {
    const gif = await expectStatus(await upload(t.token, imageForm(GIF_1x1, "image.jpg")), 200);
    expect(gif.photoUrl).toBe(`/api/images/${sha(GIF_1x1)}.gif`);
    expect(await h.db.select({ id: images.id }).from(images).where(eq(images.sha256, sha(PNG_1x1)))).toHaveLength(0);
    const jpg = await expectStatus(await upload(t.token, imageForm(JPEG_MIN)), 200);
    expect(jpg.photoUrl).toBe(`/api/images/${sha(JPEG_MIN)}.jpg`);
    const res = await h.call("GET", `/images/${sha(JPEG_MIN)}.jpg`);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
  });

  it("rejects SVG, HTML and other content whatever the name says (422)", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const [bytes, name, type] of [
      [svg, "image.jpg", "image/jpeg"],
      [svg, "x.svg", "image/svg+xml"],
      ["<html><body>hola</body></html>", "image.png", "image/png"],
      [Buffer.from("%PDF-1.4 ..."), "image.gif", "image/gif"],
    ] as const) {
      const p = await expectProblem(await upload(t.token, imageForm(bytes as string, name, type)), 422);
      expect(p.title).toBe("Formato de archivo no soportado.");
      expect(p.errors).toEqual({ Image: ["Formato de archivo no soportado."] });
    }
  });

  it("rejects images over 800 KB with the spec message (413)", async () => {
    const big = Buffer.concat([PNG_1x1, Buffer.alloc(800 * 1024 + 1 - PNG_1x1.length)]);
    const p = await expectProblem(await upload(t.token, imageForm(big, "image.jpg")), 413);
    expect(p.title).toBe("La imagen excede el tamaño máximo permitido de 800KB.");
    expect(p.errors).toEqual({ Image: ["La imagen excede el tamaño máximo permitido de 800KB."] });

    const exactly = Buffer.concat([PNG_1x1, Buffer.alloc(800 * 1024 - PNG_1x1.length)]);
    await expectStatus(await upload(t.token, imageForm(exactly, "image.jpg")), 200);

    const huge = Buffer.concat([PNG_1x1, Buffer.alloc(3 * 1024 * 1024)]);
    const p2 = await expectProblem(await upload(t.token, imageForm(huge, "image.jpg")), 413);
    expect(p2.title).toBe("La imagen excede el tamaño máximo permitido de 800KB.");
  });

  it("refuses a picture declaring more than 8000 px a side or 40 Mpx, whatever its file size (422), and is not stored", async () => {
    const message = "La imagen es demasiado grande: como máximo 8000 píxeles de ancho o de alto y 40 megapíxeles.";
    for (const bomb of [pngOf(20_000, 20_000), pngOf(8001, 10), pngOf(7000, 7000), gifOf([1, 1], [0, 0, 20_000, 20_000]), jpegOf(20_000, 20_000)]) {
      for (const send of [() => upload(t.token, imageForm(bomb)), () => h.call("POST", "/Business/Images", { token: t.token, body: imageForm(bomb) })]) {
        const p = await expectProblem(await send(), 422);
        expect(p.title).toBe(message);
        expect(p.errors).toEqual({ Image: [message] });
      }
      expect(await h.db.select({ id: images.id }).from(images).where(eq(images.sha256, sha(bomb)))).toHaveLength(0);
    }
    // The bounds themselves are accepted.
    const wide = pngOf(8000, 5000);
    await expectStatus(await h.call("POST", "/Business/Images", { token: t.token, body: imageForm(wide) }), 201);
  });

  it("refuses an image whose header cannot be read with the spec's toast (422)", async () => {
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
    for (const bytes of [noFrame, pngOf(1, 1).subarray(0, 20)]) {
      const p = await expectProblem(await upload(t.token, imageForm(bytes)), 422);
      expect(p.errors).toEqual({ Image: ["Ocurrió un error al cargar la imagen."] });
    }
  });

  it("does not serve a stored picture past the bounds (stored before they applied)", async () => {
    const bomb = pngOf(20_000, 20_000);
    await h.db.insert(images).values({ businessId: t.businessId, sha256: sha(bomb), mime: "image/png", bytes: bomb, size: bomb.length });
    await expectProblem(await h.call("GET", `/images/${sha(bomb)}.png`), 404);
  });

  it("requires the Image field and multipart (422/415)", async () => {
    const form = new FormData();
    form.append("Other", "x");
    const p = await expectProblem(await upload(t.token, form), 422);
    expect(p.errors).toEqual({ Image: ["Elegí una imagen."] });
    await expectProblem(await h.call("PATCH", "/Business/Images/ProfilePicture", { token: t.token, body: { Image: "x" } }), 415);
  });

  it("removes the photo with DELETE { imageUrl } and photoUrl becomes null", async () => {
    const { photoUrl } = await expectStatus(await upload(t.token, imageForm(GIF_1x1)), 200);
    const res = await h.call("DELETE", "/Business/Images/ProfilePicture", { token: t.token, body: { imageUrl: photoUrl } });
    expect(await expectStatus(res, 200)).toEqual({ photoUrl: null });
    const profile = await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: t.token }), 200);
    expect(profile.photoUrl).toBeNull();
    await expectProblem(await h.call("GET", photoUrl.replace(/^\/api/, "")), 404);
    // Gone now: a second delete is a 404; a missing imageUrl a 422.
    await expectProblem(await h.call("DELETE", "/Business/Images/ProfilePicture", { token: t.token, body: { imageUrl: photoUrl } }), 404);
    const v = await expectProblem(await h.call("DELETE", "/Business/Images/ProfilePicture", { token: t.token, body: {} }), 422);
    expect(v.errors).toEqual({ imageUrl: ["Este campo es obligatorio."] });
  });

  it("cannot delete another business's image (404), which stays served", async () => {
    const { photoUrl } = await expectStatus(await upload(other.token, imageForm(PNG_1x1)), 200);
    await expectProblem(await h.call("DELETE", "/Business/Images/ProfilePicture", { token: t.token, body: { imageUrl: photoUrl } }), 404);
    expect((await h.call("GET", photoUrl.replace(/^\/api/, ""))).status).toBe(200);
    const profile = await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: other.token }), 200);
    expect(profile.photoUrl).toBe(photoUrl);
  });

  it("uploads a station photo with POST /Business/Images", async () => {
    const res = await h.call("POST", "/Business/Images", { token: t.token, body: imageForm(JPEG_MIN, "fachada.jpg") });
    expect(await expectStatus(res, 201)).toEqual({ url: `/api/images/${sha(JPEG_MIN)}.jpg` });
  });
});
