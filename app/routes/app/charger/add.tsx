import { BiChip } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Anadir cargador");

export default function Screen() {
  return (
    <>
      <PageHeader title="Anadir cargador" />
      <EmptyState icon={<BiChip size={48} />} title="Asignar cargadores a una estación está en construcción" action={<Button asChild size="3"><Link to="/charger">Volver a mis cargadores</Link></Button>}>
        Muy pronto vas a poder sumar acá cargadores existentes o nuevos a una estación.
      </EmptyState>
    </>
  );
}
