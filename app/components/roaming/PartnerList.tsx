// Roaming: the partners with their state, each with "Dar de baja" for who may change roaming.
import { Form } from "react-router";
import { Badge, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { RoamingPartnerDto } from "#contract/dto";
import { BiTransfer, BiTrash } from "~/icons";
import { EmptyState } from "~/components/Page";
import { formatDateTime } from "~/components/charts/format";
import { STATUS_LABELS } from "./types";

function StatusBadge({ status }: { status: RoamingPartnerDto["status"] }) {
  const color = status === "REGISTERED" ? "green" : status === "PENDING" ? "amber" : "gray";
  return (
    <Badge color={color} variant="soft" size="2" data-testid="partner-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

function PartnerCard({ partner, writable }: { partner: RoamingPartnerDto; writable: boolean }) {
  const name = partner.name ?? (partner.partyId ? `${partner.countryCode}*${partner.partyId}` : "Invitación sin usar");
  return (
    <Card size="2" asChild>
      <li data-testid="partner-card" data-status={partner.status}>
        <Flex direction="column" gap="2" align="start">
          <Flex gap="2" align="center" wrap="wrap">
            <Text weight="medium">{name}</Text>
            {partner.partyId ? (
              <Text size="2" color="gray">
                {partner.countryCode}*{partner.partyId}
              </Text>
            ) : null}
            <StatusBadge status={partner.status} />
          </Flex>
          <Text size="2" color="gray">
            Agregado: {formatDateTime(partner.createdAt)} · Última sincronización: {partner.lastSyncAt ? formatDateTime(partner.lastSyncAt) : "nunca"} · Fallas: {partner.failures}
          </Text>
          {partner.lastError ? (
            <Text size="2" color="red">
              Último error: {partner.lastError}
            </Text>
          ) : null}
          {partner.modules.length ? (
            <Text size="2" color="gray">
              Módulos del socio: {partner.modules.join(", ")}
            </Text>
          ) : null}
          {writable ? (
            <details className="charger-confirm" data-testid="partner-remove">
              <summary className="charger-confirm-summary" data-color="red">
                <BiTrash aria-hidden="true" /> Dar de baja
              </summary>
              <div className="charger-confirm-body">
                <Text as="p" size="2" mb="3">
                  ¿Dar de baja a <strong>{name}</strong>? Le avisamos y sus tokens dejan de valer en el acto.
                </Text>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="id" value={partner.id} />
                  <input type="hidden" name="name" value={name} />
                  <Button type="submit" color="red" size="2">
                    Sí, dar de baja
                  </Button>
                </Form>
              </div>
            </details>
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}

/** The "Socios" section of the page. */
export function PartnerList({ partners, partnerTotal, writable }: { partners: RoamingPartnerDto[]; partnerTotal: number; writable: boolean }) {
  return (
    <section aria-labelledby="partners-title">
      <Heading as="h2" size="4" mb="3" id="partners-title">
        Socios {partnerTotal > partners.length ? `(${partners.length} de ${partnerTotal})` : null}
      </Heading>
      {partners.length ? (
        <ul className="roaming-list" aria-label="Socios de roaming">
          {partners.map((p) => (
            <PartnerCard key={p.id} partner={p} writable={writable} />
          ))}
        </ul>
      ) : (
        <EmptyState icon={<BiTransfer size={48} />} title="Todavía no tenés socios de roaming">
          Generá una invitación o registrate con los datos de un socio.
        </EmptyState>
      )}
    </section>
  );
}
