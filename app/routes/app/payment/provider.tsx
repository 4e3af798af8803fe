// 'Mercado Pago' and 'Pagos360' (/payment/payments/:provider): the account's status, the two-step
// disconnect and the form that connects it or replaces its credentials. One screen for both
// providers; what differs (the fields, the instructions, Pagos360's webhook URL) is chosen here.
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiArrowBack, BiLockAlt } from "~/icons";
import type { PaymentAccountDto } from "#contract/dto";
import { PageHeader } from "~/components/Page";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, InfoMessage } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { AccountBadge, AccountDetails, DisconnectSection } from "~/components/payment/ProviderStatus";
import { PROVIDER_LABELS } from "~/components/activity/labels";
import { providerAction, providerLoader } from "./provider.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/provider";

type Provider = PaymentAccountDto["provider"];

/** The page's title: the provider's name. */
export const meta = pageMeta((data) => (data ? PROVIDER_LABELS[(data as { provider: Provider }).provider] : "Pagos"));

export const loader = ({ request, context, params }: Route.LoaderArgs) => providerLoader(params.provider, request, context);
export const action = ({ request, context, params }: Route.ActionArgs) => providerAction(params.provider, request, context);

export default function PaymentProvider({ loaderData, actionData }: Route.ComponentProps) {
  // A new form per provider: its id and its lazily loaded schema are the provider's.
  return <ProviderPage key={loaderData.provider} loaderData={loaderData} actionData={actionData} />;
}

function ProviderPage({ loaderData, actionData }: Pick<Route.ComponentProps, "loaderData" | "actionData">) {
  const { provider, account, error, confirming, webhookUrl } = loaderData;
  const mercadoPago = provider === "MERCADOPAGO";
  const name = PROVIDER_LABELS[provider];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const onValidate = useLazySchema(() => import("#contract/schemas/payment").then((m) => (mercadoPago ? m.mercadoPagoConnectSchema : m.pagos360ConnectSchema)));
  const [form, fields] = useForm({
    id: mercadoPago ? "mercado-pago" : "pagos360",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const connected = account && account.status !== "DISCONNECTED";
  // Facturación and Lectura see the account, without connecting or disconnecting it.
  const canWrite = useAccess().can("payment.write");
  return (
    <>
      <Link to="/payment" className="back-link">
        <BiArrowBack aria-hidden="true" /> Volver a pagos
      </Link>
      <PageHeader title={name} description={`Conectá la cuenta de ${name} de tu empresa para cobrar las cargas.`} />
      {error || !account ? (
        <InfoMessage color="red">{error}</InfoMessage>
      ) : (
        <Flex direction="column" gap="4" className="provider-page">
          <Card size="3">
            <Flex justify="between" align="center" mb="3" gap="2" wrap="wrap">
              <Heading as="h2" size="5">
                Estado de la cuenta
              </Heading>
              <AccountBadge account={account} />
            </Flex>
            <AccountDetails account={account} />
            {webhookUrl ? (
              <Text as="p" size="2" color="gray" mt="3" data-testid="pagos360-webhook-url">
                Para que te avisemos al instante de cada pago con QR, configurá en Pagos360 (<em>Configuración → Webhooks</em>) esta URL: <code>{webhookUrl}</code>.
                Pagos360 no hace devoluciones automáticas: los saldos que no usen los conductores los devolvés vos y los registrás en Pagos.
              </Text>
            ) : null}
            {connected && canWrite ? (
              <Flex direction="column" mt="4">
                <DisconnectSection account={account} confirming={confirming} busy={busy} />
              </Flex>
            ) : null}
          </Card>
          {canWrite ? (
            <Card size="3">
              <Heading as="h2" size="5" mb="2">
                {connected ? "Reemplazar las credenciales" : "Conectar la cuenta"}
              </Heading>
              <Text as="p" color="gray" size="2" mb="4">
                {mercadoPago ? (
                  <>
                    Copiá la clave pública y el access token desde <em>Tus integraciones → Credenciales</em> en el panel de desarrolladores de Mercado Pago. Usá las
                    credenciales de prueba (TEST-) para probar y las de producción (APP_USR-) para cobrar.
                  </>
                ) : (
                  <>
                    Generá una API key en el panel de Pagos360 (<em>Configuración → API</em>) y copiala acá junto con el nombre de la cuenta.
                  </>
                )}
              </Text>
              <Flex direction="column" gap="4">
                <FormError errors={form.errors} id={form.errorId} />
                <Form method="post" {...getFormProps(form)} autoComplete="off">
                  <input type="hidden" name="intent" value="connect" />
                  <Flex direction="column" gap="4">
                    {mercadoPago ? (
                      <>
                        <Field meta={fields.publicKey} label="Clave pública (public key)" autoComplete="off" hint="Empieza con APP_USR- o TEST-." />
                        <Field meta={fields.accessToken} label="Access token" type="password" autoComplete="off" hint="Empieza con APP_USR- o TEST-, del mismo entorno que la clave pública." />
                        <Field
                          meta={fields.webhookSecret}
                          label="Clave secreta de webhooks (opcional)"
                          type="password"
                          autoComplete="off"
                          hint="En Tus integraciones → Webhooks. Con ella confirmamos al instante los pagos con QR de tus cargadores."
                        />
                        <Field meta={fields.accountLabel} label="Nombre para reconocer la cuenta (opcional)" autoComplete="off" placeholder="Por ejemplo: Cuenta principal" />
                      </>
                    ) : (
                      <>
                        <Field meta={fields.accountName} label="Nombre de la cuenta" autoComplete="organization" hint="Como figura en Pagos360." />
                        <Field meta={fields.apiKey} label="API key" type="password" autoComplete="off" hint="Al menos 16 caracteres: letras, números, puntos y guiones." />
                      </>
                    )}
                    <Flex gap="2" align="center">
                      <BiLockAlt aria-hidden="true" />
                      <Text size="2" color="gray">
                        Guardamos las credenciales cifradas y no las volvemos a mostrar: solo vas a ver los últimos 4 caracteres.
                      </Text>
                    </Flex>
                    <Flex>
                      <Button type="submit" size="3" disabled={busy}>
                        {connected ? "Guardar las nuevas credenciales" : `Conectar ${name}`}
                      </Button>
                    </Flex>
                  </Flex>
                </Form>
              </Flex>
            </Card>
          ) : null}
        </Flex>
      )}
    </>
  );
}
