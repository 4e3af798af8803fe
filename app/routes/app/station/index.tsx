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
      <EmptyState icon={<BiMap size={48} />} title="El listado de estaciones está en preparación" action={<Button asChild size="3"><Link to="/station/new">Nueva estación</Link></Button>}>
        Muy pronto vas a ver acá tus estaciones con su dirección, sus cargadores y su estado en vivo.
      </EmptyState>
    </>
  );
}
