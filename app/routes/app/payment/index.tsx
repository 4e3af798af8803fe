import { BiCreditCard } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { Button } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Pagos");

export default function Screen() {
  return (
    <>
      <PageHeader title="Pagos" />
      <EmptyState icon={<BiCreditCard size={48} />} title="Todavía no conectaste un medio de cobro" action={<Button asChild size="3"><Link to="/payment/payments/mercadoPago">Conectar Mercado Pago</Link></Button>}>
        Conectá tu cuenta de Mercado Pago o de Pagos360 para cobrar las sesiones de carga.
      </EmptyState>
    </>
  );
}
