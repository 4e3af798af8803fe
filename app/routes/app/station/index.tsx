import { BiMap } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Mis estaciones");

export default function Screen() {
  return (
    <>
      <PageHeader title="Mis estaciones" />
      <EmptyState icon={<BiMap size={48} />} title="Todavía no cargaste estaciones" action={<Button asChild size="3"><Link to="/station/new">Nueva estación</Link></Button>}>
        Creá tu primera estación con su dirección y su ubicación en el mapa; después le vas a poder sumar cargadores.
      </EmptyState>
    </>
  );
}
