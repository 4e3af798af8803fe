// A company's statuses and their labels, without zod and apart from ./constants, which re-exports
// them: the profile helpers (app/lib/profile.ts, which the photo uploader of the station screens
// imports too) carry only these (JS budget).

export const BUSINESS_STATUSES = ["PENDING", "ACTIVE", "REJECTED", "SUSPENDED"] as const;
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];
export const BUSINESS_STATUS_LABELS: Record<BusinessStatus, string> = {
  PENDING: "Verificación pendiente",
  ACTIVE: "Activa",
  REJECTED: "Rechazada",
  SUSPENDED: "Suspendida",
};
