// Roaming: the invitation just created (shown once), the company's OCPI identity with its party
// id form, and "Agregar un socio" (an invitation, or a registration with the partner's data).
import { Form } from "react-router";
import { Button, Card, Code, Flex, Heading, Text } from "@radix-ui/themes";
import type { RoamingPartnerCreatedDto, RoamingSettingsDto } from "#contract/dto";
import { BiKey, BiPlusCircle, BiTransfer } from "~/icons";
import { TitledCard } from "~/components/Page";
import { TextInput } from "./TextInput";
import type { ActionData } from "./types";

/** The token A is only in the action's answer: shown here once, never in a URL or a toast. */
export function CreatedInvitation({ created }: { created: RoamingPartnerCreatedDto | undefined }) {
  if (!created?.token) return null;
  return (
    <Card size="3" mb="4" data-testid="roaming-invitation" role="status">
      <Heading as="h2" size="4" mb="2">
        <BiKey aria-hidden="true" /> Entregale estos datos al socio
      </Heading>
      <Text as="p" size="2" mb="3">
        Copialos ahora: el token no se vuelve a mostrar. Con ellos el socio se registra y la invitación pasa a «Registrado».
      </Text>
      <dl className="roaming-credentials">
        <dt>URL de versiones</dt>
        <dd>
          <Code size="3" data-testid="invitation-url">
            {created.versionsUrl}
          </Code>
        </dd>
        <dt>Token</dt>
        <dd>
          <Code size="3" data-testid="invitation-token" className="roaming-token">
            {created.token}
          </Code>
        </dd>
      </dl>
    </Card>
  );
}

export function OcpiIdentityCard({ settings, writable, result, busy }: { settings: RoamingSettingsDto | null; writable: boolean; result: ActionData | null; busy: boolean }) {
  const errors = result?.errors ?? {};
  return (
    <TitledCard title="Tu identificación OCPI">
      <Flex direction="column" gap="3">
        <Text as="p" size="2">
          País: <strong>AR</strong> · Party id: <strong data-testid="party-id">{settings?.partyId ?? "sin configurar"}</strong>
        </Text>
        {settings ? (
          <Text as="p" size="2">
            URL de versiones: <Code>{settings.versionsUrl}</Code>
          </Text>
        ) : null}
        {writable ? (
          <Form method="post" data-testid="party-form">
            <input type="hidden" name="intent" value="party" />
            <Flex direction="column" gap="3">
              <TextInput
                name="partyId"
                label="Party id"
                defaultValue={result?.intent === "party" ? result.values?.partyId : (settings?.partyId ?? "")}
                error={result?.intent === "party" ? errors.partyId?.[0] : undefined}
                hint="3 letras o números que te identifican ante los socios (por ejemplo ENC)."
              />
              <div>
                <Button type="submit" size="3" disabled={busy}>
                  Guardar party id
                </Button>
              </div>
            </Flex>
          </Form>
        ) : null}
      </Flex>
    </TitledCard>
  );
}

export function AddPartnerCard({ result, busy }: { result: ActionData | null; busy: boolean }) {
  const errors = result?.errors ?? {};
  return (
      <TitledCard title="Agregar un socio">
        <Flex direction="column" gap="4">
          <Form method="post" data-testid="invite-form">
            <input type="hidden" name="intent" value="invite" />
            <Text as="p" size="2" mb="2">
              El socio se registra con tu URL de versiones y un token que generamos ahora.
            </Text>
            {result?.intent === "invite" && errors.partyId ? (
              <Text as="p" size="2" color="red" mb="2" data-testid="invite-error">
                {errors.partyId[0]}
              </Text>
            ) : null}
            <Button type="submit" size="3" variant="soft" disabled={busy}>
              <BiPlusCircle aria-hidden="true" /> Generar invitación
            </Button>
          </Form>
          <Form method="post" data-testid="register-form">
            <input type="hidden" name="intent" value="register" />
            <Flex direction="column" gap="3">
              <Text as="p" size="2">
                O registrate vos con los datos que te dio el socio:
              </Text>
              {result?.intent === "register" && errors.partyId ? (
                <Text as="p" size="2" color="red">
                  {errors.partyId[0]}
                </Text>
              ) : null}
              <TextInput name="versionsUrl" label="URL de versiones del socio" defaultValue={result?.intent === "register" ? result.values?.versionsUrl : ""} error={result?.intent === "register" ? errors.versionsUrl?.[0] : undefined} />
              <TextInput name="token" label="Token del socio" error={result?.intent === "register" ? errors.token?.[0] : undefined} />
              <div>
                <Button type="submit" size="3" disabled={busy}>
                  <BiTransfer aria-hidden="true" /> Registrarme con el socio
                </Button>
              </div>
            </Flex>
          </Form>
        </Flex>
      </TitledCard>
  );
}
