// The four-way summary of connector statuses (available, in use, faulted, offline) that the
// home screen, the charger list and the station screens show. Apart from the rest of the OCPP
// vocabulary (./ocpp-status.ts re-exports it) so that a screen showing only the summary stays light.
import type { ChargePointStatus } from "./ocpp-status";

export const STATUS_BUCKETS = ["available", "charging", "faulted", "offline"] as const;
export type StatusBucket = (typeof STATUS_BUCKETS)[number];

/** Plural labels for counters ("3 Disponibles"). `charging` counts every occupied connector. */
export const STATUS_BUCKET_LABELS: Record<StatusBucket, string> = {
  available: "Disponibles",
  charging: "En uso",
  faulted: "En falla",
  offline: "Sin conexión",
};

/**
 * Bucket of a connector. A charger that is offline or disabled makes its connectors
 * `offline` whatever their last reported status, since that status can no longer be trusted.
 * Reserved counts as in use: nobody else can charge there.
 */
export function statusBucket(status: ChargePointStatus | null | undefined, charger: { online: boolean; enabled?: boolean } = { online: true }): StatusBucket {
  if (!charger.online || charger.enabled === false || status == null) return "offline";
  switch (status) {
    case "Available":
      return "available";
    case "Faulted":
      return "faulted";
    case "Unavailable":
      return "offline";
    default:
      return "charging";
  }
}

/** Counts per bucket, every bucket present (zero when empty) so the UI never checks. */
export function countByBucket(items: Iterable<StatusBucket>): Record<StatusBucket, number> {
  const counts: Record<StatusBucket, number> = { available: 0, charging: 0, faulted: 0, offline: 0 };
  for (const b of items) counts[b]++;
  return counts;
}
