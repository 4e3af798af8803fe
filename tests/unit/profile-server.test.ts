// The server side of the uploader: the same rules in the same order, the magic-byte check, and
// a multipart parser that never throws on a large file (the Spanish message instead of 413/500).
import { describe, expect, it } from "vitest";
import { BLANK_PHOTO, IMAGE_MESSAGES, MAX_IMAGE_BYTES } from "~/lib/profile";
import { imageFormData, readForm, readImageUpload } from "~/lib/profile.server";

const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const GIF_HEAD = Buffer.from("GIF89a", "latin1");

const file = (bytes: Uint8Array, name: string, type = "") => new File([new Uint8Array(bytes)], name, { type });
const padded = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 1)]);
const dataUrl = (bytes: Uint8Array, mime: string) => `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;

describe("readImageUpload: a file posted without JavaScript", () => {
  it("accepts real images by content, whatever the case of the extension", async () => {
    const png = await readImageUpload([file(PNG_1x1, "Logo.PNG", "image/png")]);
    expect(png).toMatchObject({ kind: "ok", image: { mime: "image/png" } });
    expect(await readImageUpload([file(padded(JPEG_HEAD, 100), "foto.jpeg")])).toMatchObject({ kind: "ok", image: { mime: "image/jpeg" } });
    expect(await readImageUpload([file(padded(GIF_HEAD, 100), "a.gif")])).toMatchObject({ kind: "ok", image: { mime: "image/gif" } });
  });

  it("extension first: a .webp is refused even when it is huge", async () => {
    expect(await readImageUpload([file(padded(JPEG_HEAD, MAX_IMAGE_BYTES + 10), "a.webp")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.format,
    });
  });

  it("then the size: exactly 800*1024 bytes passes, one more fails", async () => {
    expect((await readImageUpload([file(padded(JPEG_HEAD, MAX_IMAGE_BYTES), "a.jpg")])).kind).toBe("ok");
    expect(await readImageUpload([file(padded(JPEG_HEAD, MAX_IMAGE_BYTES + 1), "a.jpg")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.size,
    });
  });

  it("then the content: a renamed non-image (or SVG) is 'Formato de archivo no soportado.'", async () => {
    expect(await readImageUpload([file(Buffer.from("hola, no soy una imagen"), "falsa.png", "image/png")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.format,
    });
    expect(await readImageUpload([file(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), "x.jpg")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.format,
    });
  });

  it("an empty named file cannot be read", async () => {
    expect(await readImageUpload([file(new Uint8Array(0), "vacia.png")])).toEqual({ kind: "error", message: IMAGE_MESSAGES.unreadable });
  });

  it("an empty file input (no file chosen) is no upload", async () => {
    expect(await readImageUpload([file(new Uint8Array(0), "")])).toEqual({ kind: "none" });
    expect(await readImageUpload([])).toEqual({ kind: "none" });
  });
});

describe("readImageUpload: a data-URL from the uploader (only when set and not the placeholder)", () => {
  it("nothing, the blank placeholder or a plain URL is no upload", async () => {
    for (const value of ["", BLANK_PHOTO, "/api/images/abc.png", "https://example.com/a.png"]) {
      expect(await readImageUpload([value]), value).toEqual({ kind: "none" });
    }
  });

  it("a valid data-URL is decoded and checked by content", async () => {
    const result = await readImageUpload([dataUrl(PNG_1x1, "image/png")]);
    expect(result.kind).toBe("ok");
    if (result.kind === "ok") expect(Buffer.from(result.image.bytes).equals(PNG_1x1)).toBe(true);
    expect((await readImageUpload([dataUrl(padded(JPEG_HEAD, 50), "image/jpeg")])).kind).toBe("ok");
  });

  it("same order: the declared type, then the size, then the content", async () => {
    expect(await readImageUpload([dataUrl(PNG_1x1, "image/webp")])).toEqual({ kind: "error", message: IMAGE_MESSAGES.format });
    expect(await readImageUpload([dataUrl(padded(JPEG_HEAD, MAX_IMAGE_BYTES + 10), "image/webp")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.format,
    });
    expect((await readImageUpload([dataUrl(padded(JPEG_HEAD, MAX_IMAGE_BYTES), "image/jpeg")])).kind).toBe("ok");
    expect(await readImageUpload([dataUrl(padded(JPEG_HEAD, MAX_IMAGE_BYTES + 1), "image/jpeg")])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.size,
    });
    expect(await readImageUpload([dataUrl(Buffer.from("texto"), "image/png")])).toEqual({ kind: "error", message: IMAGE_MESSAGES.format });
  });

  it("a broken data-URL cannot be read", async () => {
    expect(await readImageUpload(["data:image/png;base64,@@@not base64@@@"])).toEqual({
      kind: "error",
      message: IMAGE_MESSAGES.unreadable,
    });
    expect(await readImageUpload(["data:nothing"])).toEqual({ kind: "error", message: IMAGE_MESSAGES.unreadable });
  });
});

function multipart(parts: { name: string; value: string | File }[]): Request {
  const body = new FormData();
  for (const p of parts) body.append(p.name, p.value);
  return new Request("http://app.test/user", { method: "POST", body });
}

describe("readForm", () => {
  it("keeps every field and caps a huge file one byte over the limit (no throw)", async () => {
    const big = file(padded(JPEG_HEAD, 3 * 1024 * 1024), "grande.jpg", "image/jpeg");
    const form = await readForm(
      multipart([
        { name: "businessName", value: "Cargas del Sur" },
        { name: "photo", value: big },
        { name: "phoneNumber", value: "11 4321-5678" },
      ])
    );
    expect(form.get("businessName")).toBe("Cargas del Sur");
    expect(form.get("phoneNumber")).toBe("11 4321-5678");
    const photo = form.get("photo") as File;
    expect(photo.name).toBe("grande.jpg");
    expect(photo.size).toBe(MAX_IMAGE_BYTES + 1);
    expect(await readImageUpload([photo])).toEqual({ kind: "error", message: IMAGE_MESSAGES.size });
  });

  it("a file within the limit arrives whole", async () => {
    const form = await readForm(multipart([{ name: "photo", value: file(PNG_1x1, "a.png", "image/png") }]));
    const photo = form.get("photo") as File;
    expect(Buffer.from(await photo.arrayBuffer()).equals(PNG_1x1)).toBe(true);
  });

  it("a huge data-URL is cut but still reads as too large", async () => {
    const form = await readForm(multipart([{ name: "photo", value: dataUrl(padded(JPEG_HEAD, 2 * 1024 * 1024), "image/jpeg") }]));
    expect((form.get("photo") as string).length).toBeLessThan(1.3 * 1024 * 1024);
    expect(await readImageUpload(form.getAll("photo"))).toEqual({ kind: "error", message: IMAGE_MESSAGES.size });
  });

  it("url-encoded forms and broken bodies", async () => {
    const form = await readForm(
      new Request("http://app.test/user", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=password&currentPassword=x",
      })
    );
    expect(form.get("intent")).toBe("password");
    const broken = await readForm(
      new Request("http://app.test/user", {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=zzz" },
        body: "garbage",
      })
    );
    expect([...broken.keys()]).toEqual([]);
  });
});

describe("imageFormData", () => {
  it("is a multipart form with the field Image sent as image.jpg", async () => {
    const body = imageFormData({ bytes: new Uint8Array(PNG_1x1), mime: "image/png" });
    const image = body.get("Image") as File;
    expect(image.name).toBe("image.jpg");
    expect(image.type).toBe("image/png");
    expect(image.size).toBe(PNG_1x1.length);
  });
});
