import { useNavigation, useFetchers } from "react-router";

/** 'Cargando...' while a navigation, a submission or a fetcher is pending. */
export function PendingIndicator() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  if (!busy) return null;
  return (
    <div className="pending" role="status" aria-live="polite" data-testid="pending">
      <div className="pending-bar" />
      <span className="pending-label">Cargando...</span>
    </div>
  );
}
