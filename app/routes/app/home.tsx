import { BiHomeAlt } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Inicio");

export default function Screen() {
  return (
    <>
      <PageHeader title="Inicio" />
      <EmptyState icon={<BiHomeAlt size={48} />} title="El resumen de tu red está en preparación" action={<Button asChild size="3"><Link to="/station/new">Crear mi primera estación</Link></Button>}>
        Muy pronto vas a ver acá la energía entregada, los ingresos, la disponibilidad y el estado de tus cargadores.
      </EmptyState>
    </>
  );
}
