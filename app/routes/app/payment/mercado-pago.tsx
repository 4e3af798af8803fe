import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiArrowBack, BiLockAlt } from "~/icons";
import { mercadoPagoConnectSchema } from "#contract/schemas/payment";
import { PageHeader } from "~/components/Page";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, InfoMessage } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { AccountBadge, AccountDetails, DisconnectSection } from "~/components/payment/ProviderStatus";
import { providerAction, providerLoader } from "./provider.server";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import type { Route } from "./+types/mercado-pago";

export const meta = pageMeta("Mercado Pago");

const FIELDS = ["publicKey", "accessToken", "accountLabel", "webhookSecret"] as const;

export const loader = ({ request, context }: Route.LoaderArgs) => providerLoader("MERCADOPAGO", request, context);
export const action = ({ request, context }: Route.ActionArgs) => providerAction("MERCADOPAGO", mercadoPagoConnectSchema, FIELDS, request, context);

export default function MercadoPago({ loaderData, actionData }: Route.ComponentProps) {
  const { account, error, confirming } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const onValidate = useLazySchema(() => import("#contract/schemas/payment").then((m) => m.mercadoPagoConnectSchema));
  const [form, fields] = useForm({
    id: "mercado-pago",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const connected = account && account.status !== "DISCONNECTED";
  // Issue 26: Facturación and Lectura see the account, without connecting or disconnecting it.
  const canWrite = useAccess().can("payment.write");
  return (
    <>
      <Link to="/payment" className="back-link">
        <BiArrowBack aria-hidden="true" /> Volver a pagos
      </Link>
      <PageHeader title="Mercado Pago" description="Conectá la cuenta de Mercado Pago de tu empresa para cobrar las cargas." />
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
                Copiá la clave pública y el access token desde <em>Tus integraciones → Credenciales</em> en el panel de desarrolladores de Mercado Pago. Usá las
                credenciales de prueba (TEST-) para probar y las de producción (APP_USR-) para cobrar.
              </Text>
              <Flex direction="column" gap="4">
                <FormError errors={form.errors} id={form.errorId} />
                <Form method="post" {...getFormProps(form)} autoComplete="off">
                  <input type="hidden" name="intent" value="connect" />
                  <Flex direction="column" gap="4">
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
                    <Flex gap="2" align="center">
                      <BiLockAlt aria-hidden="true" />
                      <Text size="2" color="gray">
                        Guardamos las credenciales cifradas y no las volvemos a mostrar: solo vas a ver los últimos 4 caracteres.
                      </Text>
                    </Flex>
                    <Flex>
                      <Button type="submit" size="3" disabled={busy}>
                        {connected ? "Guardar las nuevas credenciales" : "Conectar Mercado Pago"}
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
