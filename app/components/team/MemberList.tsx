// Equipo: the members with their role and last sign-in — a table on wide screens, cards on small
// ones — with the forms to change a role, remove a member or transfer the ownership.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { MemberDto } from "#contract/dto";
import { ASSIGNABLE_ROLES, ROLE_LABELS, can, type Role } from "#domain/permissions";
import { BiGroup, BiTransfer, BiTrash } from "~/icons";
import { EmptyState } from "~/components/Page";
import { Cell, ColumnHeaderCell, Row, RowHeaderCell } from "~/components/table";
import { ListTable } from "~/components/list/ListTable";
import { formatDateTime } from "~/components/charts/format";
import { RoleBadge } from "./RoleBadge";

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

/** The "Miembros" section of the page. */
export function MemberList({ members, role }: { members: MemberDto[]; role: Role | null }) {
  return (
    <section aria-labelledby="members-title">
      <Heading as="h2" size="4" mb="3" id="members-title">
        Miembros
      </Heading>
      {members.length ? (
        <>
          <ListTable
            caption="Miembros de la empresa"
            className="team-table"
            head={
              <>
                <ColumnHeaderCell>Persona</ColumnHeaderCell>
                <ColumnHeaderCell>Rol</ColumnHeaderCell>
                <ColumnHeaderCell>Último ingreso</ColumnHeaderCell>
                <ColumnHeaderCell>Acciones</ColumnHeaderCell>
              </>
            }
          >
            {members.map((m) => (
              <MemberRow key={m.id} member={m} viewerRole={role} />
            ))}
          </ListTable>
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
  );
}
