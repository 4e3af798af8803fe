import { BiCreditCard } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Mercado Pago");

export default function Screen() {
  return (
    <>
      <PageHeader title="Mercado Pago" />
      <EmptyState icon={<BiCreditCard size={48} />} title="La conexión con Mercado Pago está en construcción" action={<Button asChild size="3"><Link to="/payment">Volver a pagos</Link></Button>}>
        Muy pronto vas a poder conectar acá tu cuenta con tu clave pública y tu token de acceso.
      </EmptyState>
    </>
  );
}
