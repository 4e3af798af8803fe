import { BiUser } from "react-icons/bi";
import { EmptyState, PageHeader } from "~/components/Page";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Mi perfil");

export default function Screen() {
  return (
    <>
      <PageHeader title="Mi perfil" />
      <EmptyState icon={<BiUser size={48} />} title="Tu perfil está en construcción">
        Muy pronto vas a poder editar acá los datos y la foto de tu empresa.
      </EmptyState>
    </>
  );
}
