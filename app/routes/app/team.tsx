// Equipo (issue 26): the company's members with their role and last sign-in, invitations by
// e-mail with a role, role changes, removals, the ownership transfer and the pending invitations
// (resend, revoke). Plain forms: everything works without JavaScript. Only the roles with
// member.read see it (Dueño, Administrador); the Business API checks every change again.
import type { ReactNode } from "react";
import { data, Form, useNavigation } from "react-router";
import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Badge, Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import type { InvitationDto, MemberDto } from "#contract/dto";
import { UUID_RE } from "#contract/schemas/constants";
import { invitationInputSchema } from "#contract/schemas/team";
import { ASSIGNABLE_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, can, type Role } from "#domain/permissions";
import { BiEnvelope, BiGroup, BiTransfer, BiTrash, BiUserPlus } from "~/icons";
import { EmptyState, PageHeader, TitledCard } from "~/components/Page";
import { Field, FieldError, VALIDATE_ON } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { FormError, InfoMessage } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { Body, Cell, ColumnHeaderCell, DataTable, Header, Row, RowHeaderCell } from "~/components/table";
import { formatDateTime } from "~/components/charts/format";
import { createApiClient, fetchJson, readJson, type ApiProblem } from "~/lib/api.server";
import { requireMember } from "~/lib/auth.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/team";

export const meta = pageMeta("Equipo");

const UNAVAILABLE = "No pudimos cargar el equipo. Probá de nuevo en unos minutos.";
const FAILED = "No pudimos guardar el cambio. Probá de nuevo en unos minutos.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, business, headers } = await requireMember(request, context);
  const api = createApiClient(context, user.idToken);
  const [members, invitations] = await Promise.all([
    fetchJson<{ items: MemberDto[] }>(api, "/Business/Member"),
    fetchJson<{ items: InvitationDto[] }>(api, "/Business/Invitation"),
  ]);
  return data(
    {
      role: business.role ?? null,
      members: members.ok ? members.data.items : [],
      invitations: invitations.ok ? invitations.data.items : [],
      error: members.ok && invitations.ok ? null : UNAVAILABLE,
    },
    { headers },
  );
}

type Intent = "invite" | "role" | "transfer" | "remove" | "resend" | "revoke";

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireMember(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const api = createApiClient(context, user.idToken);

  if (intent === "invite") {
    const submission = parseWithZod(form, { schema: invitationInputSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    let res: Response;
    try {
      res = await api.post("/Business/Invitation", submission.value);
    } catch {
      return dataWithError(context, { intent, result: submission.reply({ formErrors: [FAILED] }) }, FAILED, { status: 503 });
    }
    if (!res.ok) {
      const problem = await readJson<ApiProblem>(res);
      const message = problem?.title ?? FAILED;
      const fieldErrors: Record<string, string[]> | undefined = problem?.errors?.email
        ? { email: problem.errors.email }
        : problem?.errors?.role
          ? { role: problem.errors.role }
          : undefined;
      return dataWithError(context, { intent, result: submission.reply({ fieldErrors, formErrors: fieldErrors ? [] : [message] }) }, message, {
        status: res.status,
      });
    }
    return redirectWithSuccess("/team", `Enviamos la invitación a ${submission.value.email}.`);
  }

  const id = String(form.get("id") ?? "");
  if (!UUID_RE.test(id)) return dataWithError(context, { intent, result: null }, "No entendimos qué querías hacer. Probá de nuevo.", { status: 400 });
  let call: () => Promise<Response>;
  let done: string;
  const who = String(form.get("email") ?? "").slice(0, 254);
  switch (intent) {
    case "role": {
      const role = String(form.get("role") ?? "");
      if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role))
        return dataWithError(context, { intent, result: null }, "Elegí un rol de la lista.", { status: 400 });
      call = () => api.patch(`/Business/Member/${id}`, { role });
      done = `${who || "El miembro"} ahora tiene el rol ${ROLE_LABELS[role as Role]}.`;
      break;
    }
    case "transfer":
      call = () => api.patch(`/Business/Member/${id}`, { role: "OWNER" });
      done = `Transferimos la propiedad de la empresa a ${who || "otro miembro"}. Ahora sos administrador.`;
      break;
    case "remove":
      call = () => api.delete(`/Business/Member/${id}`);
      done = `Quitamos a ${who || "el miembro"} de la empresa.`;
      break;
    case "resend":
      call = () => api.post(`/Business/Invitation/${id}/Resend`);
      done = `Reenviamos la invitación a ${who || "la persona invitada"}.`;
      break;
    case "revoke":
      call = () => api.delete(`/Business/Invitation/${id}`);
      done = `Revocamos la invitación a ${who || "la persona invitada"}.`;
      break;
    default:
      return dataWithError(context, { intent, result: null }, "No entendimos qué querías hacer. Probá de nuevo.", { status: 400 });
  }
  let res: Response;
  try {
    res = await call();
  } catch {
    return dataWithError(context, { intent, result: null }, FAILED, { status: 503 });
  }
  if (!res.ok) {
    const problem = await readJson<ApiProblem>(res);
    return dataWithError(context, { intent, result: null }, problem?.title ?? FAILED, { status: res.status });
  }
  return redirectWithSuccess("/team", done);
}

function RoleBadge({ role }: { role: Role }) {
  const color = role === "OWNER" ? "purple" : role === "ADMIN" ? "sky" : "gray";
  return (
    <Badge color={color} variant="soft" size="2" data-testid="member-role">
      {ROLE_LABELS[role]}
    </Badge>
  );
}

function Confirm({ label, tone, children, testId }: { label: ReactNode; tone: "red" | "amber"; children: ReactNode; testId: string }) {
  return (
    <details className="charger-confirm" data-testid={testId}>
      <summary className="charger-confirm-summary" data-color={tone === "red" ? "red" : undefined}>
        {label}
      </summary>
      <div className="charger-confirm-body">{children}</div>
    </details>
  );
}

function MemberName({ member }: { member: MemberDto }) {
  return (
    <>
      <Text weight="medium" className="team-email">
        {member.email}
      </Text>
      {member.you ? (
        <Text size="2" color="gray">
          {" "}
          (vos)
        </Text>
      ) : null}
    </>
  );
}

/** The member's role: a form to change it when the viewer may, else a badge. `idPrefix` keeps ids unique (table and cards). */
function MemberRole({ member, manageable, idPrefix }: { member: MemberDto; manageable: boolean; idPrefix: string }) {
  if (!manageable) return <RoleBadge role={member.role} />;
  const id = `${idPrefix}-${member.id}`;
  return (
    <Form method="post" className="team-inline" data-testid="member-role-form">
      <input type="hidden" name="intent" value="role" />
      <input type="hidden" name="id" value={member.id} />
      <input type="hidden" name="email" value={member.email} />
      <label htmlFor={id} className="visually-hidden">
        Rol de {member.email}
      </label>
      <select id={id} name="role" defaultValue={member.role} className="field-select">
        {ASSIGNABLE_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      <Button type="submit" variant="soft" size="2">
        Cambiar rol
      </Button>
    </Form>
  );
}

const lastSignIn = (member: MemberDto) => (member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "Nunca");

function permissionsOver(member: MemberDto, viewerRole: Role | null) {
  return {
    manageable: can(viewerRole, "member.write") && member.role !== "OWNER" && !member.you,
    transferable: can(viewerRole, "member.transfer") && !member.you,
  };
}

function MemberRow({ member, viewerRole }: { member: MemberDto; viewerRole: Role | null }) {
  const { manageable, transferable } = permissionsOver(member, viewerRole);
  return (
    <Row data-testid="member-row" data-email={member.email}>
      <RowHeaderCell>
        <MemberName member={member} />
      </RowHeaderCell>
      <Cell>
        <MemberRole member={member} manageable={manageable} idPrefix="role" />
      </Cell>
      <Cell>{lastSignIn(member)}</Cell>
      <Cell>
        <MemberActions member={member} manageable={manageable} transferable={transferable} />
      </Cell>
    </Row>
  );
}

/** Small screens: a member as a card. */
function MemberCard({ member, viewerRole }: { member: MemberDto; viewerRole: Role | null }) {
  const { manageable, transferable } = permissionsOver(member, viewerRole);
  return (
    <Card size="2" asChild>
      <li data-testid="member-card" data-email={member.email}>
        <Flex direction="column" gap="2" align="start">
          <div>
            <MemberName member={member} />
          </div>
          <MemberRole member={member} manageable={manageable} idPrefix="role-card" />
          <Text size="2" color="gray">
            Último ingreso: {lastSignIn(member)}
          </Text>
          {manageable || transferable ? <MemberActions member={member} manageable={manageable} transferable={transferable} /> : null}
        </Flex>
      </li>
    </Card>
  );
}

function MemberActions({ member, manageable, transferable }: { member: MemberDto; manageable: boolean; transferable: boolean }) {
  return (
    <Flex direction="column" gap="2" align="start">
      {manageable ? (
        <Confirm
          label={
            <>
              <BiTrash aria-hidden="true" /> Quitar
            </>
          }
          tone="red"
          testId="member-remove"
        >
          <Text as="p" size="2" mb="3">
            ¿Quitar a <strong>{member.email}</strong> de la empresa? Pierde el acceso en el acto; podés volver a invitarlo.
          </Text>
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="id" value={member.id} />
            <input type="hidden" name="email" value={member.email} />
            <Button type="submit" color="red" size="2">
              Sí, quitar
            </Button>
          </Form>
        </Confirm>
      ) : null}
      {transferable ? (
        <Confirm
          label={
            <>
              <BiTransfer aria-hidden="true" /> Transferir la propiedad
            </>
          }
          tone="amber"
          testId="member-transfer"
        >
          <Text as="p" size="2" mb="3">
            <strong>{member.email}</strong> pasa a ser el dueño de la empresa y vos quedás como administrador. Solo el nuevo dueño puede devolvértela.
          </Text>
          <Form method="post">
            <input type="hidden" name="intent" value="transfer" />
            <input type="hidden" name="id" value={member.id} />
            <input type="hidden" name="email" value={member.email} />
            <Button type="submit" color="amber" size="2">
              Sí, transferir
            </Button>
          </Form>
        </Confirm>
      ) : null}
      {!manageable && !transferable ? (
        <Text size="2" color="gray">
          —
        </Text>
      ) : null}
    </Flex>
  );
}

function InviteForm({ lastResult }: { lastResult: unknown }) {
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("#contract/schemas/team").then((m) => m.invitationInputSchema));
  const [form, fields] = useForm({
    id: "invite",
    lastResult: navigation.state === "idle" ? (lastResult as never) : null,
    onValidate,
    defaultValue: { role: "TECHNICIAN" },
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const { key: _key, ...roleSelect } = withAutoFocus(fields.role, getSelectProps(fields.role)) as ReturnType<typeof getSelectProps> & { key?: string };
  return (
    <Form method="post" {...getFormProps(form)} data-testid="invite-form">
      <input type="hidden" name="intent" value="invite" />
      <Flex direction="column" gap="3">
        <FormError errors={form.errors} id={form.errorId} />
        <Field
          meta={fields.email}
          label="Correo electrónico"
          type="email"
          autoComplete="off"
          inputMode="email"
          hint="Le llega un enlace que vale una sola vez, por 7 días."
        />
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={fields.role.id} size="2" weight="medium">
            Rol
          </Text>
          <select {...roleSelect} className="field-select">
            {ASSIGNABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
          <FieldError meta={fields.role} className="field-error-slot" />
        </Flex>
        <div>
          <Button type="submit" size="3" disabled={busy}>
            <BiUserPlus aria-hidden="true" /> Enviar invitación
          </Button>
        </div>
      </Flex>
    </Form>
  );
}

function InvitationRow({ invitation }: { invitation: InvitationDto }) {
  return (
    <Row data-testid="invitation-row" data-email={invitation.email}>
      <RowHeaderCell>
        <Text weight="medium">{invitation.email}</Text>
      </RowHeaderCell>
      <Cell>
        <RoleBadge role={invitation.role} />
      </Cell>
      <Cell>{formatDateTime(invitation.sentAt)}</Cell>
      <Cell>
        {invitation.expired ? (
          <Badge color="amber" variant="soft" size="2">
            Vencida
          </Badge>
        ) : (
          formatDateTime(invitation.expiresAt)
        )}
      </Cell>
      <Cell>
        <InvitationActions invitation={invitation} />
      </Cell>
    </Row>
  );
}

function InvitationActions({ invitation }: { invitation: InvitationDto }) {
  return (
    <Flex gap="2" wrap="wrap">
      <Form method="post">
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="id" value={invitation.id} />
        <input type="hidden" name="email" value={invitation.email} />
        <Button type="submit" variant="soft" size="2">
          <BiEnvelope aria-hidden="true" /> Reenviar
        </Button>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="id" value={invitation.id} />
        <input type="hidden" name="email" value={invitation.email} />
        <Button type="submit" variant="soft" color="red" size="2">
          Revocar
        </Button>
      </Form>
    </Flex>
  );
}

/** Small screens: an invitation as a card. */
function InvitationCard({ invitation }: { invitation: InvitationDto }) {
  return (
    <Card size="2" asChild>
      <li data-testid="invitation-card" data-email={invitation.email}>
        <Flex direction="column" gap="2" align="start">
          <Text weight="medium" className="team-email">
            {invitation.email}
          </Text>
          <RoleBadge role={invitation.role} />
          <Text size="2" color="gray">
            Enviada: {formatDateTime(invitation.sentAt)} · {invitation.expired ? "Vencida" : `Vence: ${formatDateTime(invitation.expiresAt)}`}
          </Text>
          <InvitationActions invitation={invitation} />
        </Flex>
      </li>
    </Card>
  );
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
        <section aria-labelledby="members-title">
          <Heading as="h2" size="4" mb="3" id="members-title">
            Miembros
          </Heading>
          {members.length ? (
            <>
              <div className="team-table">
                <DataTable caption="Miembros de la empresa">
                  <Header>
                    <Row>
                      <ColumnHeaderCell>Persona</ColumnHeaderCell>
                      <ColumnHeaderCell>Rol</ColumnHeaderCell>
                      <ColumnHeaderCell>Último ingreso</ColumnHeaderCell>
                      <ColumnHeaderCell>Acciones</ColumnHeaderCell>
                    </Row>
                  </Header>
                  <Body>
                    {members.map((m) => (
                      <MemberRow key={m.id} member={m} viewerRole={role} />
                    ))}
                  </Body>
                </DataTable>
              </div>
              <ul className="team-cards" aria-label="Miembros de la empresa">
                {members.map((m) => (
                  <MemberCard key={m.id} member={m} viewerRole={role} />
                ))}
              </ul>
            </>
          ) : (
            <EmptyState icon={<BiGroup size={48} />} title="No pudimos mostrar los miembros" />
          )}
        </section>

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

        <section aria-labelledby="invitations-title">
          <Heading as="h2" size="4" mb="3" id="invitations-title">
            Invitaciones pendientes
          </Heading>
          {invitations.length ? (
            <>
              <div className="team-table">
                <DataTable caption="Invitaciones pendientes">
                  <Header>
                    <Row>
                      <ColumnHeaderCell>Correo</ColumnHeaderCell>
                      <ColumnHeaderCell>Rol</ColumnHeaderCell>
                      <ColumnHeaderCell>Enviada</ColumnHeaderCell>
                      <ColumnHeaderCell>Vence</ColumnHeaderCell>
                      <ColumnHeaderCell>Acciones</ColumnHeaderCell>
                    </Row>
                  </Header>
                  <Body>
                    {invitations.map((i) => (
                      <InvitationRow key={i.id} invitation={i} />
                    ))}
                  </Body>
                </DataTable>
              </div>
              <ul className="team-cards" aria-label="Invitaciones pendientes">
                {invitations.map((i) => (
                  <InvitationCard key={i.id} invitation={i} />
                ))}
              </ul>
            </>
          ) : (
            <Text as="p" color="gray" data-testid="no-invitations">
              No hay invitaciones pendientes.
            </Text>
          )}
        </section>
      </Flex>
    </>
  );
}
