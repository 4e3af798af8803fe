import { BiChip } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Mis cargadores");

export default function Screen() {
  return (
    <>
      <PageHeader title="Mis cargadores" />
      <EmptyState icon={<BiChip size={48} />} title="El listado de cargadores está en preparación" action={<Button asChild size="3"><Link to="/charger/new">Nuevo cargador</Link></Button>}>
        Muy pronto vas a ver acá tus cargadores con su identidad OCPP, su conexión y el estado de cada conector.
      </EmptyState>
    </>
  );
}
