import { BiPurchaseTag } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Tarifas");

export default function Screen() {
  return (
    <>
      <PageHeader title="Tarifas" />
      <EmptyState icon={<BiPurchaseTag size={48} />} title="El listado de tarifas está en preparación" action={<Button asChild size="3"><Link to="/rate/new">Nueva tarifa</Link></Button>}>
        Muy pronto vas a ver acá cuánto cobrás por kWh, por minuto y por sesión, y las penalidades por inactividad.
      </EmptyState>
    </>
  );
}
