import { BiLineChart } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Actividad");

export default function Screen() {
  return (
    <>
      <PageHeader title="Actividad" />
      <EmptyState icon={<BiLineChart size={48} />} title="Todavía no hay sesiones de carga">
        Cada carga que hagan tus cargadores va a aparecer acá con su energía, su duración y su costo.
      </EmptyState>
    </>
  );
}
