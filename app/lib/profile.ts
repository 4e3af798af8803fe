// The company profile and the photo uploader's rules.
// Pure and browser-safe: the screen, the uploader and the server-side checks all use it. No zod:
// the forms' schemas are in ./schemas/profile.ts (loaded lazily in the browser).
import { BUSINESS_STATUS_LABELS, type BusinessStatus } from "#contract/schemas/business-constants";
import { sniffImage } from "#domain/image-sniff";

// ---------------------------------------------------------------------------------------------
// Profile mapping.

/** The profile photo an account has until it uploads one. */
export const BLANK_PHOTO = "/images/blank.png";

/** The business user as received from the server: only these fields are read. */
export interface BusinessUser {
  businessAddress?: string | null;
  businessName?: string | null;
  cuit?: string | null;
  phoneNumber?: string | null;
  photoUrl?: string | null;
  status?: string | null;
  email?: string | null;
}

/** What the identity provider knows about the signed-in user. */
export interface IdentityProfile {
  displayName?: string | null;
  photoUrl?: string | null;
}

/** The profile as the product uses it. */
export interface Profile {
  address: string;
  cuit: string;
  name: string;
  phone: string;
  photo: string;
  status: string;
}

const text = (value: string | null | undefined) => (typeof value === "string" ? value : "");
const present = (value: string | null | undefined) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/**
 * BusinessUser → Profile with every default: empty strings, the name from the
 * identity provider when the company has none, the photo from the identity provider and then
 * the blank placeholder.
 */
export function toProfile(user: BusinessUser | null | undefined, identity: IdentityProfile | null | undefined = undefined): Profile {
  return {
    address: text(user?.businessAddress),
    cuit: text(user?.cuit),
    name: present(user?.businessName) ?? present(identity?.displayName) ?? "",
    phone: text(user?.phoneNumber),
    photo: present(user?.photoUrl) ?? present(identity?.photoUrl) ?? BLANK_PHOTO,
    status: text(user?.status),
  };
}

/** Spanish label of a company status; unknown values as they are. */
export function statusLabel(status: string): string {
  return BUSINESS_STATUS_LABELS[status as BusinessStatus] ?? status;
}

/** The CUIT is fixed once the company is approved. */
export const isCuitEditable = (status: string) => status !== "ACTIVE";

// ---------------------------------------------------------------------------------------------
// Photo upload rules.

export const MAX_IMAGE_BYTES = 800 * 1024;
export const ALLOWED_EXTENSIONS = ["jpeg", "png", "jpg", "gif"] as const;
export const IMAGE_ACCEPT = ".jpeg,.png,.jpg,.gif";
export const UPLOAD_LABEL = "Cargar foto";
export const UPLOAD_HINT = "JPG, JPEG, GIF o PNG permitidos. Tamaño máximo de 800KB.";
/** The file name every upload is sent as. */
export const UPLOAD_FILE_NAME = "image.jpg";

export const IMAGE_MESSAGES = {
  format: "Formato de archivo no soportado.",
  size: "La imagen excede el tamaño máximo permitido de 800KB.",
  unreadable: "Ocurrió un error al cargar la imagen.",
} as const;

export type ImageCheck = { ok: true } | { ok: false; message: string };

/** The extension after the last dot, lower-cased ("" when there is none). */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 || (dot === 0 && base.length > 1) ? base.slice(dot + 1).toLowerCase() : "";
}

export function isAllowedExtension(fileName: string): boolean {
  return (ALLOWED_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

/** How many bytes at the start of a file `checkImageContent` needs. */
export const IMAGE_HEAD_BYTES = 16;

/**
 * The file's content, after its extension and size: JPEG, PNG or GIF by their magic numbers
 * (api/image-sniff), the same rule in the browser (on the first bytes) and on the server.
 */
export function checkImageContent(head: Uint8Array): ImageCheck {
  if (head.byteLength === 0) return { ok: false, message: IMAGE_MESSAGES.unreadable };
  return sniffImage(head) ? { ok: true } : { ok: false, message: IMAGE_MESSAGES.format };
}

/** The uploader's checks in the spec's order: the extension (case-insensitive), then the size. */
export function checkImageFile(file: { name: string; size: number }): ImageCheck {
  if (!isAllowedExtension(file.name)) return { ok: false, message: IMAGE_MESSAGES.format };
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, message: IMAGE_MESSAGES.size };
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Forms of the screen. The field names are the API's, so its per-field errors land
// on the right input.

export const PROFILE_FIELDS = ["businessName", "cuit", "businessAddress", "phoneNumber"] as const;
export const PHOTO_FIELD = "photo";

export const profileMessages = {
  nameRequired: "Ingresá el nombre de la empresa.",
  nameShort: "El nombre debe tener al menos 2 caracteres.",
  nameLong: "El nombre puede tener como máximo 120 caracteres.",
  currentPasswordRequired: "Ingresá tu contraseña actual.",
  currentPasswordWrong: "La contraseña actual no es correcta.",
  samePassword: "La nueva contraseña tiene que ser distinta de la actual.",
} as const;
