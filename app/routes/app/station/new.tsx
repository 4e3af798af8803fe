import { Link } from "react-router";
import { Button } from "@radix-ui/themes";
import { BiArrowBack } from "~/icons";
import { PageHeader } from "~/components/Page";
import { StationForm } from "~/components/station/StationForm";
import { stationFormDefaults } from "~/components/station/form-values";
import { apiFor, loadServices, saveStation, readStationForm } from "~/lib/station.server";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new";

export const meta = pageMeta("Nueva estación");

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = await apiFor(request, context);
  // The form's starting values are computed here: their code stays off the page's JavaScript.
  return { services: await loadServices(api), formToken: newFormToken(), defaultValue: stationFormDefaults() };
}

export async function action({ request, context }: Route.ActionArgs) {
  return saveStation(request, context, await readStationForm(request));
}

export default function NewStation({ loaderData, actionData, matches }: Route.ComponentProps) {
  const { services, formToken, defaultValue } = loaderData;
  return (
    <>
      <PageHeader
        title="Nueva estación"
        description="Cargá dónde está, qué ofrece y cuándo abre. Después le sumás los cargadores."
        actions={
          <Button asChild variant="soft" color="gray" size="3">
            <Link to="/station">
              <BiArrowBack aria-hidden="true" /> Mis estaciones
            </Link>
          </Button>
        }
      />
      <StationForm
        id="station-new"
        formToken={formToken}
        defaultValue={defaultValue}
        lastResult={actionData?.result}
        services={services}
        mapsKey={matches[0].loaderData.googleMapsApiKey}
        submitLabel="Crear estación"
      />
    </>
  );
}
