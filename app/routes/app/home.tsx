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
      <EmptyState icon={<BiHomeAlt size={48} />} title="Todavía no hay actividad para resumir" action={<Button asChild size="3"><Link to="/station/new">Crear mi primera estación</Link></Button>}>
        Cuando tus cargadores registren sesiones de carga vas a ver acá la energía entregada, los ingresos y el estado de tu red.
      </EmptyState>
    </>
  );
}
