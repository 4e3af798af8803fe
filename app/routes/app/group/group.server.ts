// The access group screens' resource: its endpoints and words for the shared helpers of
// app/lib/resource.server.ts (read one, save the form, delete with a toast).
import { endpoints } from "#contract/endpoints";
import type { AccessGroupDto } from "#contract/dto";
import type { Resource } from "~/lib/resource.server";

export const GROUPS: Resource<AccessGroupDto> = {
  get: endpoints.accessGroupGet,
  create: endpoints.accessGroupCreate,
  update: endpoints.accessGroupUpdate,
  remove: endpoints.accessGroupDelete,
  list: "/group",
  item: "el grupo",
  nameOf: (group) => group.name,
  gone: "El grupo ya no existe.",
  saveFailed: "No pudimos guardar el grupo. Revisá los datos e intentá de nuevo.",
  deleteFailed: "No pudimos eliminar el grupo. Probá de nuevo en unos minutos.",
  fields: new Set(["name", "allStations", "stationIds", "rateId", "billingCuit", "billingName", "billingTaxCondition", "billingMonthly"]),
};
