import { BiLineChart } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Actividad");

export default function Screen() {
  return (
    <>
      <PageHeader title="Actividad" />
      <EmptyState icon={<BiLineChart size={48} />} title="El listado de sesiones está en preparación">
        Muy pronto vas a ver acá cada carga con su energía, su duración, su costo y su estado de pago.
      </EmptyState>
    </>
  );
}
