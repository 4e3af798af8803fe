import { BiMap } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Editar estación");

export default function Screen() {
  return (
    <>
      <PageHeader title="Editar estación" />
      <EmptyState icon={<BiMap size={48} />} title="La edición de estaciones está en construcción" action={<Button asChild size="3"><Link to="/station">Volver a mis estaciones</Link></Button>}>
        Muy pronto vas a poder modificar acá los datos de la estación.
      </EmptyState>
    </>
  );
}
