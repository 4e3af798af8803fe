// Image type by content (magic bytes), never by file name. Only the formats the product accepts: JPEG, PNG, GIF.
// SVG (scriptable) and anything else is refused. The picture's declared size is read from its
// header and bounded too (MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS).

export const MAX_IMAGE_BYTES = 800 * 1024;

/**
 * A few hundred KB of PNG or GIF can declare a 20000 × 20000 picture, gigabytes once decoded by
 * whoever shows it (browsers, thumbnails): the size a file declares is read from its header and
 * refused past these bounds, without ever decoding the pixels. A phone photo (12–48 Mpx at most
 * 8000 px a side) fits; a station or profile photo needs far less.
 */
export const MAX_IMAGE_SIDE = 8000;
export const MAX_IMAGE_PIXELS = 40_000_000;

export type ImageKind = { mime: "image/jpeg"; ext: "jpg" } | { mime: "image/png"; ext: "png" } | { mime: "image/gif"; ext: "gif" };

export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { mime: "image/png", ext: "png" };
  if (bytes.length >= 6) {
    const head = String.fromCharCode(...bytes.subarray(0, 6));
    if (head === "GIF87a" || head === "GIF89a") return { mime: "image/gif", ext: "gif" };
  }
  return null;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The picture's size as its header declares it (for a GIF, the largest extent of the canvas and
 * of every frame), or null when the header cannot be read — a file no viewer could show either.
 * Reads headers only: linear in the file's length, never decodes pixels.
 */
export function imageSize(bytes: Uint8Array, kind: ImageKind): ImageSize | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind.ext === "png") return pngSize(buf);
  if (kind.ext === "gif") return gifSize(buf);
  return jpegSize(buf);
}

/** Whether a picture of this size is within MAX_IMAGE_SIDE and MAX_IMAGE_PIXELS. */
export function sizeAllowed({ width, height }: ImageSize): boolean {
  return width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;
}

/** PNG: the first chunk is IHDR, width and height as 32-bit big-endian numbers. */
function pngSize(buf: Buffer): ImageSize | null {
  if (buf.length < 24 || buf.toString("latin1", 12, 16) !== "IHDR") return null;
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * GIF: the logical screen, then every frame's descriptor (a frame may reach past the screen, and
 * decoders allocate for it). Extensions and image data are skipped by their sub-block lengths.
 */
function gifSize(buf: Buffer): ImageSize | null {
  if (buf.length < 13) return null;
  let width = buf.readUInt16LE(6);
  let height = buf.readUInt16LE(8);
  let i = 13 + colorTableLength(buf[10]);
  const skipSubBlocks = () => {
    while (i < buf.length && buf[i] !== 0) i += buf[i] + 1;
    i += 1;
  };
  while (i < buf.length) {
    const block = buf[i];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      i += 2; // introducer and label
      skipSubBlocks();
    } else if (block === 0x2c) {
      if (i + 10 > buf.length) return null;
      width = Math.max(width, buf.readUInt16LE(i + 1) + buf.readUInt16LE(i + 5));
      height = Math.max(height, buf.readUInt16LE(i + 3) + buf.readUInt16LE(i + 7));
      i += 10 + colorTableLength(buf[i + 9]) + 1; // descriptor, local colour table, LZW code size
      skipSubBlocks();
    } else {
      break; // not a block: decoders stop here too
    }
  }
  return width > 0 && height > 0 ? { width, height } : null;
}

function colorTableLength(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}

/**
 * JPEG: the frame header (SOF0–SOF15 but DHT, JPG and DAC) before the first scan. Segments are
 * skipped by their length, so a thumbnail inside APP1 (Exif) is never taken for the picture. A
 * height of 0 (given later by a DNL marker) is refused: nothing bounds it here.
 */
function jpegSize(buf: Buffer): ImageSize | null {
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or a scan, before any frame
    const length = buf.readUInt16BE(i + 2);
    if (length < 2) return null;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (i + 9 > buf.length) return null;
      const height = buf.readUInt16BE(i + 5);
      const width = buf.readUInt16BE(i + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    i += 2 + length;
  }
  return null;
}

export const IMAGE_MIME_BY_EXT: Record<string, ImageKind["mime"]> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" };
