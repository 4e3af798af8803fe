// Equipo: the company's members with their role and last sign-in, invitations by e-mail with a
// role, role changes, removals, the ownership transfer and the pending invitations (resend,
// revoke). Plain forms: everything works without JavaScript. Only the roles with member.read see
// it (Dueño, Administrador); the Business API checks every change again. The server side is in
// ./team.server.ts, the sections in ~/components/team.
import { Flex, Grid, Text } from "@radix-ui/themes";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from "#domain/permissions";
import { data } from "react-router";
import { PageHeader, TitledCard } from "~/components/Page";
import { InfoMessage } from "~/components/messages";
import { InvitationList } from "~/components/team/InvitationList";
import { InviteForm } from "~/components/team/InviteForm";
import { MemberList } from "~/components/team/MemberList";
import { createApiClient } from "~/lib/api.server";
import { requireMember } from "~/lib/auth.server";
import { pageMeta } from "~/lib/meta";
import { changeRow, invite, loadTeam, type Intent } from "./team.server";
import type { Route } from "./+types/team";

export const meta = pageMeta("Equipo");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, business, headers } = await requireMember(request, context);
  return data({ role: business.role ?? null, ...(await loadTeam(context, user)) }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireMember(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const api = createApiClient(context, user.idToken);
  if (intent === "invite") return invite(context, api, form);
  return changeRow(context, api, intent, form);
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
  const { role, members, invitations, error } = loaderData;
  const inviteResult = actionData && "intent" in actionData && actionData.intent === "invite" ? actionData.result : null;
  return (
    <>
      <PageHeader title="Equipo" description="Las personas de tu empresa y lo que cada una puede hacer. Los cambios quedan en la auditoría." />
      {error ? (
        <InfoMessage color="red" testId="team-error">
          {error}
        </InfoMessage>
      ) : null}
      <Flex direction="column" gap="5">
        <MemberList members={members} role={role} />

        <Grid columns={{ initial: "1", md: "2" }} gap="4">
          <TitledCard title="Invitar a alguien">
            <InviteForm lastResult={inviteResult} />
          </TitledCard>
          <TitledCard title="Qué puede hacer cada rol">
            <dl className="role-list" data-testid="role-descriptions">
              {ROLES.map((r) => (
                <div key={r}>
                  <dt>
                    <Text weight="medium">{ROLE_LABELS[r]}</Text>
                  </dt>
                  <dd>
                    <Text size="2" color="gray">
                      {ROLE_DESCRIPTIONS[r]}
                    </Text>
                  </dd>
                </div>
              ))}
            </dl>
          </TitledCard>
        </Grid>

        <InvitationList invitations={invitations} />
      </Flex>
    </>
  );
}
