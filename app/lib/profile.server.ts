// Server side of the photo uploader (spec §5, §8): the same rules in the same order as the
// browser, for a file posted without JavaScript or a data-URL posted with it, plus a check of
// the real content (magic bytes) so a renamed file is refused. Never trust the client.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { sniffImage } from "#api/image-sniff";
import { IMAGE_MESSAGES, MAX_IMAGE_BYTES, UPLOAD_FILE_NAME, checkImageFile } from "./profile";

/** Kept from an uploaded file: one byte over the limit is enough to say it is too large. */
const FILE_KEEP_BYTES = MAX_IMAGE_BYTES + 1;
/** Kept from a text field: a data-URL of 800 KB is ~1.1 MB; anything longer is too large anyway. */
const TEXT_KEEP_CHARS = Math.ceil((MAX_IMAGE_BYTES + 1) / 3) * 4 + 64 * 1024;

/**
 * A memory upload handler that never throws on size: files keep at most 800 KB + 1 byte (the
 * rest is read and dropped, so the size rule answers in Spanish instead of a 413/500), text
 * fields at most ~1.2 MB. Every other field of the form survives.
 */
export const cappedUploadHandler: UploadHandler = async ({ filename, contentType, data }) => {
  const isFile = typeof filename === "string";
  const keep = isFile ? FILE_KEEP_BYTES : TEXT_KEEP_CHARS;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let kept = 0;
  for await (const chunk of data) {
    if (kept >= keep) continue; // drain the part
    const slice = kept + chunk.byteLength > keep ? chunk.subarray(0, keep - kept) : chunk;
    chunks.push(new Uint8Array(slice));
    kept += slice.byteLength;
  }
  if (isFile) return new File(chunks, filename, { type: contentType });
  return new TextDecoder().decode(Buffer.concat(chunks));
};

/** The posted form, multipart (a file without JavaScript) or url-encoded. */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    try {
      return await unstable_parseMultipartFormData(request, cappedUploadHandler);
    } catch {
      return new FormData();
    }
  }
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}

export interface CheckedImage {
  bytes: Uint8Array;
  mime: "image/jpeg" | "image/png" | "image/gif";
}

export type ImageUpload = { kind: "none" } | { kind: "ok"; image: CheckedImage } | { kind: "error"; message: string };

const DATA_URL_RE = /^data:([^;,]*)(;[^,]*)?,/i;
const MIME_EXTENSION: Record<string, string> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
};

function byContent(bytes: Uint8Array): ImageUpload {
  if (bytes.byteLength === 0) return { kind: "error", message: IMAGE_MESSAGES.unreadable };
  const kind = sniffImage(bytes);
  if (!kind) return { kind: "error", message: IMAGE_MESSAGES.format };
  return { kind: "ok", image: { bytes, mime: kind.mime } };
}

/** A data-URL from the uploader: its declared type stands in for the extension. */
function fromDataUrl(value: string): ImageUpload {
  const m = DATA_URL_RE.exec(value);
  if (!m) return { kind: "error", message: IMAGE_MESSAGES.unreadable };
  const extension = MIME_EXTENSION[m[1].toLowerCase()] ?? "";
  const payload = value.slice(m[0].length);
  const base64 = /;base64/i.test(m[2] ?? "");
  // Size before decoding, from the base64 length (no 1 MB buffer for a file we refuse).
  const clean = base64 ? payload.replace(/\s+/g, "") : payload;
  const size = base64 ? Math.floor((clean.length * 3) / 4) - (clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0) : clean.length;
  const rules = checkImageFile({ name: `image.${extension}`, size });
  if (!rules.ok) return { kind: "error", message: rules.message };
  if (base64 && !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return { kind: "error", message: IMAGE_MESSAGES.unreadable };
  let bytes: Uint8Array;
  try {
    bytes = base64 ? new Uint8Array(Buffer.from(clean, "base64")) : new TextEncoder().encode(decodeURIComponent(clean));
  } catch {
    return { kind: "error", message: IMAGE_MESSAGES.unreadable };
  }
  return byContent(bytes);
}

async function fromFile(file: File): Promise<ImageUpload> {
  const rules = checkImageFile({ name: file.name, size: file.size });
  if (!rules.ok) return { kind: "error", message: rules.message };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { kind: "error", message: IMAGE_MESSAGES.unreadable };
  }
  return byContent(bytes);
}

/**
 * The new photo in a posted form, checked: extension, then size (spec §5), then its content.
 * Spec §5: a photo is uploaded only when one is set and it is not the blank placeholder — an
 * empty file input, an empty field or the placeholder mean "no new photo". Other text (for
 * instance the URL of the current photo) is not an upload either.
 */
export async function readImageUpload(values: FormDataEntryValue[]): Promise<ImageUpload> {
  for (const value of values) {
    if (typeof value === "string") {
      if (/^data:/i.test(value.trim())) return fromDataUrl(value.trim());
      continue;
    }
    // A file input left empty posts a nameless, empty part.
    if (value.size === 0 && !value.name) continue;
    return fromFile(value);
  }
  return { kind: "none" };
}

/** The multipart body of `PATCH /Business/Images/ProfilePicture`: field Image, sent as image.jpg (spec §7). */
export function imageFormData(image: CheckedImage, field = "Image"): FormData {
  const body = new FormData();
  body.append(field, new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.mime }), UPLOAD_FILE_NAME);
  return body;
}
