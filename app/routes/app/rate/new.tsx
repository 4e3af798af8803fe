import { BiPurchaseTag } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Nueva tarifa");

export default function Screen() {
  return (
    <>
      <PageHeader title="Nueva tarifa" />
      <EmptyState icon={<BiPurchaseTag size={48} />} title="El formulario de tarifas está en construcción">
        Muy pronto vas a poder definir acá precios y penalidades, con una vista previa del costo de una sesión.
      </EmptyState>
    </>
  );
}
