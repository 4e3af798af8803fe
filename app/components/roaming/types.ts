import type { RoamingPartnerCreatedDto, RoamingPartnerDto } from "#contract/dto";

/** The roaming forms, told apart by their hidden `intent`. */
export type Intent = "party" | "invite" | "register" | "remove" | "station";

/** What an action answers: errors by field, the invitation just created, or the values typed. */
export type ActionData = { intent: Intent; errors?: Record<string, string[]>; created?: RoamingPartnerCreatedDto; values?: Record<string, string> };

/** Stations shown per page. */
export const STATION_PAGE = 100;

export const STATUS_LABELS: Record<RoamingPartnerDto["status"], string> = {
  PENDING: "Esperando registro",
  REGISTERED: "Registrado",
  UNREGISTERED: "Dado de baja por el socio",
};
