import { BiPurchaseTag } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Editar tarifa");

export default function Screen() {
  return (
    <>
      <PageHeader title="Editar tarifa" />
      <EmptyState icon={<BiPurchaseTag size={48} />} title="La edición de tarifas está en construcción" action={<Button asChild size="3"><Link to="/rate">Volver a tarifas</Link></Button>}>
        Muy pronto vas a poder modificar acá los precios y las penalidades.
      </EmptyState>
    </>
  );
}
