// The RFID tag screens' resource: its endpoints and words for the shared helpers of
// app/lib/resource.server.ts (read one, save the form, delete with a toast).
import { endpoints } from "#contract/endpoints";
import type { TagDto } from "#contract/dto";
import type { Resource } from "~/lib/resource.server";

export const TAGS: Resource<TagDto> = {
  get: endpoints.tagGet,
  create: endpoints.tagCreate,
  update: endpoints.tagUpdate,
  remove: endpoints.tagDelete,
  list: "/tag",
  item: "la tarjeta",
  nameOf: (tag) => tag.idTag,
  gone: "La tarjeta ya no existe.",
  saveFailed: "No pudimos guardar la tarjeta. Revisá los datos e intentá de nuevo.",
  deleteFailed: "No pudimos eliminar la tarjeta. Probá de nuevo en unos minutos.",
  fields: new Set(["idTag", "holderName", "email", "expiresOn", "blocked", "groupId"]),
};
