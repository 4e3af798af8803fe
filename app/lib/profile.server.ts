// Server side of the photo uploader: the same rules in the same order as the
// browser, for a file posted without JavaScript or a data-URL posted with it, plus a check of
// the real content (magic bytes) so a renamed file is refused. Never trust the client.
import { sniffImage } from "#domain/image-sniff";
import { IMAGE_MESSAGES, MAX_IMAGE_BYTES, UPLOAD_FILE_NAME, checkImageContent, checkImageFile } from "./profile";

/** Kept from an uploaded file: one byte over the limit is enough to say it is too large. */
const FILE_KEEP_BYTES = MAX_IMAGE_BYTES + 1;
/** Kept from a text field: a data-URL of 800 KB is ~1.1 MB; anything longer is too large anyway. */
const TEXT_KEEP_CHARS = Math.ceil((MAX_IMAGE_BYTES + 1) / 3) * 4 + 64 * 1024;

/**
 * Caps one field so that nothing downstream holds more than it needs and the size rule answers in
 * Spanish instead of a 413/500: files keep at most 800 KB + 1 byte, text fields ~1.2 MB. The body
 * itself is bounded before it reaches React Router (server/security.ts bodyLimit).
 */
function capped(value: FormDataEntryValue): FormDataEntryValue {
  if (typeof value === "string") return value.length > TEXT_KEEP_CHARS ? value.slice(0, TEXT_KEEP_CHARS) : value;
  return value.size > FILE_KEEP_BYTES ? new File([value.slice(0, FILE_KEEP_BYTES)], value.name, { type: value.type }) : value;
}

/** The posted form, multipart (a file without JavaScript) or url-encoded; a broken body reads as empty. */
export async function readForm(request: Request): Promise<FormData> {
  let parsed: FormData;
  try {
    parsed = await request.formData();
  } catch {
    return new FormData();
  }
  const form = new FormData();
  for (const [name, value] of parsed) form.append(name, capped(value));
  return form;
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
  const content = checkImageContent(bytes);
  if (!content.ok) return { kind: "error", message: content.message };
  return { kind: "ok", image: { bytes, mime: sniffImage(bytes)!.mime } };
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
 * The new photo in a posted form, checked: extension, then size, then its content.
 * A photo is uploaded only when one is set and it is not the blank placeholder — an
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

/** The multipart body of `PATCH /Business/Images/ProfilePicture`: field Image, sent as image.jpg. */
export function imageFormData(image: CheckedImage, field = "Image"): FormData {
  const body = new FormData();
  body.append(field, new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.mime }), UPLOAD_FILE_NAME);
  return body;
}
