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
      <EmptyState icon={<BiCreditCard size={48} />} title="La sección de pagos está en preparación" action={<Button asChild size="3"><Link to="/payment/payments/mercadoPago">Conectar Mercado Pago</Link></Button>}>
        Muy pronto vas a ver acá el estado de tus cuentas de Mercado Pago y Pagos360 y los pagos de cada sesión.
      </EmptyState>
    </>
  );
}
