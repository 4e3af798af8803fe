import { BiChip } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Nuevo cargador");

export default function Screen() {
  return (
    <>
      <PageHeader title="Nuevo cargador" />
      <EmptyState icon={<BiChip size={48} />} title="El formulario de cargadores está en construcción">
        Muy pronto vas a poder registrar acá la marca, el modelo, los conectores y los datos OCPP del cargador.
      </EmptyState>
    </>
  );
}
