import { BiCreditCard } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Pagos360");

export default function Screen() {
  return (
    <>
      <PageHeader title="Pagos360" />
      <EmptyState icon={<BiCreditCard size={48} />} title="La conexión con Pagos360 está en construcción" action={<Button asChild size="3"><Link to="/payment">Volver a pagos</Link></Button>}>
        Muy pronto vas a poder conectar acá tu cuenta con tu clave de API.
      </EmptyState>
    </>
  );
}
