// The live status of a station's connectors in four buckets (domain/ocpp-status-summary).
import { PlainBadge, PlainFlex, PlainText } from "~/components/plain";
import { STATUS_BUCKETS, STATUS_BUCKET_LABELS, type StatusBucket } from "#domain/ocpp-status-summary";

const COLORS: Record<StatusBucket, "green" | "sky" | "red" | "gray"> = {
  available: "green",
  charging: "sky",
  faulted: "red",
  offline: "gray",
};

const SINGULAR: Record<StatusBucket, string> = { available: "disponible", charging: "en uso", faulted: "en falla", offline: "sin conexión" };

const fmt = new Intl.NumberFormat("es-AR");

export function StatusSummary({ summary }: { summary: Record<StatusBucket, number> }) {
  const present = STATUS_BUCKETS.filter((b) => summary[b] > 0);
  if (present.length === 0) {
    return (
      <PlainText size="2" color="gray">
        Sin conectores
      </PlainText>
    );
  }
  return (
    <PlainFlex gap="1" wrap="wrap" aria-label="Estado de los conectores">
      {present.map((b) => (
        <PlainBadge key={b} color={COLORS[b]} variant="soft" radius="full" data-bucket={b}>
          {fmt.format(summary[b])} {summary[b] === 1 ? SINGULAR[b] : STATUS_BUCKET_LABELS[b].toLowerCase()}
        </PlainBadge>
      ))}
    </PlainFlex>
  );
}
