// Roaming (ADR 0020): the company's OCPI identity (country AR and its party id), its partners —
// an invitation (our versions URL and a token A, shown once) or a registration with a partner's
// versions URL and token — with their state, unregistering, and which stations are published to
// roaming. Plain forms: everything works without JavaScript. The token A is only in the action's
// answer, never in a URL or a toast. The server side is in ./roaming.server.ts.
import { data, useNavigation } from "react-router";
import { Flex, Grid } from "@radix-ui/themes";
import { can } from "#domain/permissions";
import { PageHeader } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { PartnerList } from "~/components/roaming/PartnerList";
import { AddPartnerCard, CreatedInvitation, OcpiIdentityCard } from "~/components/roaming/Settings";
import { StationList } from "~/components/roaming/StationList";
import { STATUS_LABELS, type ActionData } from "~/components/roaming/types";
import { requireMember } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { loadRoaming, roamingAction } from "./roaming.server";
import type { Route } from "./+types/roaming";

export { STATUS_LABELS };

export const meta = pageMeta("Roaming");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, business, headers } = await requireMember(request, context);
  return data({ role: business.role ?? null, ...(await loadRoaming(request, context, user)) }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireMember(request, context);
  return roamingAction(context, user, await request.formData());
}

export default function Roaming({ loaderData, actionData }: Route.ComponentProps) {
  const { role, settings, partners, partnerTotal, stations, error } = loaderData;
  const navigation = useNavigation();
  const writable = can(role, "roaming.write");
  const result = (actionData ?? null) as ActionData | null;
  const busy = navigation.state !== "idle";
  return (
    <>
      <PageHeader
        title="Roaming"
        description="Publicá tus estaciones y tarifas a las apps de movilidad (eMSP) con OCPI 2.2.1: sus conductores cargan en tus cargadores y las cargas se les facturan."
      />
      {error ? (
        <InfoMessage color="red" testId="roaming-error">
          {error}
        </InfoMessage>
      ) : null}
      <CreatedInvitation created={result?.created} />
      <Flex direction="column" gap="5">
        <Grid columns={{ initial: "1", md: "2" }} gap="4">
          <OcpiIdentityCard settings={settings} writable={writable} result={result} busy={busy} />
          {writable ? <AddPartnerCard result={result} busy={busy} /> : null}
        </Grid>

        <PartnerList partners={partners} partnerTotal={partnerTotal} writable={writable} />

        <StationList stations={stations} writable={writable} />
      </Flex>
    </>
  );
}
