import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { Button } from "@radix-ui/themes";
import { BiArrowBack } from "~/icons";
import { PageHeader } from "~/components/Page";
import { StationForm } from "~/components/station/StationForm";
import { stationFormDefaults } from "~/components/station/form-values";
import { apiFor, loadServices, saveStation, readStationForm } from "~/components/station/station.server";
import { newFormToken } from "~/lib/form-token";
import { pageMeta } from "~/lib/meta";
import type { loader as rootLoader } from "~/root";

export const meta = pageMeta("Nueva estación");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await apiFor(request, context);
  return { services: await loadServices(api), formToken: newFormToken() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return saveStation(request, context, await readStationForm(request));
}

export default function NewStation() {
  const { services, formToken } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
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
        defaultValue={stationFormDefaults()}
        lastResult={actionData?.result}
        services={services}
        mapsKey={root?.googleMapsApiKey}
        submitLabel="Crear estación"
      />
    </>
  );
}
