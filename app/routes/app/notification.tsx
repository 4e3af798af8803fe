import { BiBell } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Notificaciones");

export default function Screen() {
  return (
    <>
      <PageHeader title="Notificaciones" />
      <EmptyState icon={<BiBell size={48} />} title="No tenés notificaciones">
        Te vamos a avisar acá cuando un cargador se desconecte o falle, cuando termine una sesión o cuando recibas un pago.
      </EmptyState>
    </>
  );
}
