// Deleting a rate: the shared confirmation (components/DeleteConfirm), with what a rate's delete
// means. A rate in use is refused by the API (409).
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { connectorCountLabel } from "./format";

export function DeleteRateConfirm({
  rate,
  action,
  cancelTo,
  error,
}: {
  rate: { id: string; name: string; connectorCount: number };
  action: string;
  cancelTo: string;
  error?: string;
}) {
  return (
    <DeleteConfirm id={rate.id} title={`¿Eliminar la tarifa «${rate.name}»?`} action={action} cancelTo={cancelTo} error={error} testId="delete-rate-confirm" errorTestId="delete-rate-error">
      No se puede deshacer. Las cargas ya registradas conservan los precios con los que se cobraron.
      {rate.connectorCount > 0 ? ` Está en uso: ${connectorCountLabel(rate.connectorCount)}; asignales otra tarifa antes de eliminarla.` : null}
    </DeleteConfirm>
  );
}
