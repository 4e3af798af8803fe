import { BiBell } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Notificaciones");

export default function Screen() {
  return (
    <>
      <PageHeader title="Notificaciones" />
      <EmptyState icon={<BiBell size={48} />} title="El listado de notificaciones está en preparación">
        Muy pronto vas a ver acá los avisos de cargadores desconectados o en falla, sesiones terminadas y pagos.
      </EmptyState>
    </>
  );
}
