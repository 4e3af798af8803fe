import { BiMap } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Nueva estación");

export default function Screen() {
  return (
    <>
      <PageHeader title="Nueva estación" />
      <EmptyState icon={<BiMap size={48} />} title="El formulario de estaciones está en construcción">
        Muy pronto vas a poder cargar acá el nombre, la dirección, la ubicación, los servicios y el horario de la estación.
      </EmptyState>
    </>
  );
}
