// Equipo: the pending invitations — a table on wide screens, cards on small ones — each with
// "Reenviar" and "Revocar".
import { Form } from "react-router";
import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { InvitationDto } from "#contract/dto";
import { BiEnvelope } from "~/icons";
import { Cell, ColumnHeaderCell, Row, RowHeaderCell } from "~/components/table";
import { ListTable } from "~/components/list/ListTable";
import { formatDateTime } from "~/components/charts/format";
import { RoleBadge } from "./RoleBadge";

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

/** The "Invitaciones pendientes" section of the page. */
export function InvitationList({ invitations }: { invitations: InvitationDto[] }) {
  return (
    <section aria-labelledby="invitations-title">
      <Heading as="h2" size="4" mb="3" id="invitations-title">
        Invitaciones pendientes
      </Heading>
      {invitations.length ? (
        <>
          <ListTable
            caption="Invitaciones pendientes"
            className="team-table"
            head={
              <>
                <ColumnHeaderCell>Correo</ColumnHeaderCell>
                <ColumnHeaderCell>Rol</ColumnHeaderCell>
                <ColumnHeaderCell>Enviada</ColumnHeaderCell>
                <ColumnHeaderCell>Vence</ColumnHeaderCell>
                <ColumnHeaderCell>Acciones</ColumnHeaderCell>
              </>
            }
          >
            {invitations.map((i) => (
              <InvitationRow key={i.id} invitation={i} />
            ))}
          </ListTable>
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
  );
}
