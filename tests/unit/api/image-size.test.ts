// The picture's declared size, read from its header without decoding (domain/image-sniff.ts): a
// small file declaring a huge picture (a decompression bomb) is caught whatever its format.
import { describe, expect, it } from "vitest";
import { imageSize, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, sizeAllowed, sniffImage, type ImageKind } from "#domain/image-sniff";
import { gifOf, jpegOf, pngOf } from "./image-fixtures";

const PNG = { mime: "image/png", ext: "png" } as const satisfies ImageKind;
const GIF = { mime: "image/gif", ext: "gif" } as const satisfies ImageKind;
const JPEG = { mime: "image/jpeg", ext: "jpg" } as const satisfies ImageKind;

describe("imageSize", () => {
  it("reads PNG's IHDR, GIF's screen and frames, and JPEG's frame header past an Exif thumbnail", () => {
    expect(imageSize(pngOf(20_000, 20_000), PNG)).toEqual({ width: 20_000, height: 20_000 });
    expect(imageSize(gifOf([16, 16], [0, 0, 16, 16]), GIF)).toEqual({ width: 16, height: 16 });
    // A frame reaching past a 1 × 1 screen is what the decoder allocates for.
    expect(imageSize(gifOf([1, 1], [100, 50, 9000, 20]), GIF)).toEqual({ width: 9100, height: 70 });
    expect(imageSize(gifOf([1, 1], [0, 0, 30_000, 30_000], false), GIF)).toEqual({ width: 30_000, height: 30_000 });
    expect(imageSize(jpegOf(20_000, 20_000), JPEG)).toEqual({ width: 20_000, height: 20_000 });
    expect(imageSize(jpegOf(640, 480), JPEG)).toEqual({ width: 640, height: 480 });
    for (const bytes of [pngOf(1, 1), gifOf([1, 1], [0, 0, 1, 1]), jpegOf(1, 1)]) expect(sniffImage(bytes)).not.toBeNull();
  });

  it("a header that cannot be read is null: truncated, no frame before the scan, a height left to a DNL marker", () => {
    expect(imageSize(pngOf(10, 10).subarray(0, 20), PNG)).toBeNull();
    expect(imageSize(pngOf(0, 10), PNG)).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]), JPEG)).toBeNull();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]), JPEG)).toBeNull();
    expect(imageSize(jpegOf(100, 0), JPEG)).toBeNull();
    expect(imageSize(Buffer.from("GIF89a", "latin1"), GIF)).toBeNull();
  });

  it("allows at most MAX_IMAGE_SIDE a side and MAX_IMAGE_PIXELS in all", () => {
    expect([MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS]).toEqual([8000, 40_000_000]);
    expect(sizeAllowed({ width: 8000, height: 5000 })).toBe(true);
    expect(sizeAllowed({ width: 4000, height: 3000 })).toBe(true);
    expect(sizeAllowed({ width: 8001, height: 1 })).toBe(false);
    expect(sizeAllowed({ width: 1, height: 8001 })).toBe(false);
    expect(sizeAllowed({ width: 7000, height: 7000 })).toBe(false);
    expect(sizeAllowed({ width: 20_000, height: 20_000 })).toBe(false);
  });
});
