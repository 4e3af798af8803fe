// Image type by content (magic bytes), never by file name. Only the spec's formats: JPEG, PNG, GIF.
// SVG (scriptable) and anything else is refused.

export const MAX_IMAGE_BYTES = 800 * 1024; // spec §5/§9

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

export const IMAGE_MIME_BY_EXT: Record<string, ImageKind["mime"]> = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" };
