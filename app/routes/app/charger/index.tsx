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
      <EmptyState icon={<BiChip size={48} />} title="Todavía no registraste cargadores" action={<Button asChild size="3"><Link to="/charger/new">Nuevo cargador</Link></Button>}>
        Registrá un cargador con su identidad OCPP para que se conecte a la plataforma y puedas asignarlo a una estación.
      </EmptyState>
    </>
  );
}
