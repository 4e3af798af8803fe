// Deleting a station, from the list or from its edit screen: the shared confirmation posting to
// the list's action (/station), which deletes only on the `delete-confirmed` intent and then goes
// back to `returnTo` (a /station list, filters kept). A station with chargers is refused (409).
import { DeleteConfirm } from "~/components/DeleteConfirm";
import { formatInt } from "~/lib/numbers";

export function DeleteStationConfirm({ station, returnTo, cancelTo }: { station: { id: string; name: string; chargerCount: number }; returnTo: string; cancelTo: string }) {
  const n = station.chargerCount;
  return (
    <DeleteConfirm
      id={station.id}
      title={`¿Eliminar «${station.name}»?`}
      action={returnTo}
      cancelTo={cancelTo}
      testId="confirm-delete"
      intent="delete-confirmed"
      fields={{ name: station.name, returnTo }}
    >
      {n > 0
        ? `Tiene ${formatInt(n)} ${n === 1 ? "cargador asignado" : "cargadores asignados"}: no se puede eliminar hasta que los muevas a otra estación o los elimines.`
        : "Se eliminan la estación, sus horarios y sus servicios. No se puede deshacer."}
    </DeleteConfirm>
  );
}
