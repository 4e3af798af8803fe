// 'Facturación' (/fiscal): the company's fiscal settings for ARCA electronic invoices — tax
// condition, the web-service point of sale, the environment, the certificate and key (uploaded as
// PEM files, never shown again: only the certificate's CUIT and expiry) — and "Probar conexión".
// Plain forms: everything works without JavaScript.
import { Form, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { BiLockAlt } from "~/icons";
import type { FiscalSettingsDto, FiscalTestDto } from "#contract/dto";
import { ARCA_ENVIRONMENT_LABELS, ARCA_ENVIRONMENTS, TAX_CONDITION_LABELS, TAX_CONDITIONS } from "#contract/schemas/constants";
import { formatCuit } from "#domain/cuit";
import { PageHeader } from "~/components/Page";
import { Field, FieldBelow, VALIDATE_ON } from "~/components/form";
import { FormError, InfoMessage } from "~/components/messages";
import { SelectField } from "~/components/rate/fields";
import { useAccess } from "~/lib/access";
import { pageMeta } from "~/lib/meta";
import { fiscalAction, fiscalLoader } from "./fiscal.server";
import type { Route } from "./+types/fiscal";

export const meta = pageMeta(() => "Facturación");
export const loader = ({ request, context }: Route.LoaderArgs) => fiscalLoader(request, context);
export const action = ({ request, context }: Route.ActionArgs) => fiscalAction(request, context);

const day = (iso: string) => new Date(iso).toLocaleDateString("es-AR", { timeZone: "America/Argentina/Buenos_Aires" });

function CertificateStatus({ settings }: { settings: FiscalSettingsDto }) {
  const cert = settings.certificate;
  if (!cert) return <InfoMessage color="amber">Todavía no subiste el certificado de ARCA: sin él no se pueden emitir comprobantes.</InfoMessage>;
  return (
    <Flex direction="column" gap="2" data-testid="fiscal-certificate">
      <Text as="p" size="2">
        Certificado del CUIT <strong>{cert.cuit ? formatCuit(cert.cuit) : "desconocido"}</strong>
        {cert.expiresAt ? <>, vence el <strong>{day(cert.expiresAt)}</strong></> : null}.
      </Text>
      {cert.expired ? (
        <InfoMessage color="red">El certificado está vencido: generá uno nuevo en ARCA y subilo.</InfoMessage>
      ) : cert.expiresSoon ? (
        <InfoMessage color="amber">El certificado vence en menos de 30 días: generá uno nuevo en ARCA y subilo antes de que venza.</InfoMessage>
      ) : null}
    </Flex>
  );
}

function TestResult({ test, last }: { test: FiscalTestDto | null | undefined; last: FiscalSettingsDto["lastTest"] }) {
  if (test) {
    return (
      <ul className="fiscal-steps" data-testid="fiscal-test-steps" aria-live="polite">
        {test.steps.map((s) => (
          <li key={s.step}>
            <Text size="2" color={s.ok ? "green" : "red"}>
              {s.ok ? "✓" : "✗"} {s.message}
            </Text>
          </li>
        ))}
      </ul>
    );
  }
  if (!last) return null;
  return (
    <Text as="p" size="2" color={last.ok ? "green" : "red"} data-testid="fiscal-last-test">
      Última prueba ({day(last.at)}): {last.message}
    </Text>
  );
}

export default function Fiscal({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, error } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const canWrite = useAccess().can("fiscal.write");
  const [form, fields] = useForm<{ taxCondition: string; pointOfSale: string | number; environment: string; certificate: string; privateKey: string }>({
    id: "fiscal",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: { taxCondition: settings?.taxCondition ?? "RESPONSABLE_INSCRIPTO", pointOfSale: settings?.pointOfSale ?? "", environment: settings?.environment ?? "HOMOLOGACION" },
    ...VALIDATE_ON,
  });
  if (error || !settings) return <InfoMessage color="red">{error}</InfoMessage>;
  const cuit = settings.companyCuit ? formatCuit(settings.companyCuit) : null;
  return (
    <>
      <PageHeader title="Facturación" description="Conectá Enchufá con ARCA para emitir las facturas electrónicas de tus cargas con tu propio certificado." />
      <Flex direction="column" gap="4" className="fiscal-page">
        <Card size="3">
          <Heading as="h2" size="5" mb="3">
            Certificado y conexión
          </Heading>
          <CertificateStatus settings={settings} />
          {settings.configured && canWrite ? (
            <Form method="post" className="fiscal-test">
              <input type="hidden" name="intent" value="test" />
              <Flex direction="column" gap="3" mt="3" align="start">
                <Button type="submit" size="3" variant="soft" disabled={busy}>
                  Probar conexión
                </Button>
                <TestResult test={actionData?.test} last={settings.lastTest} />
              </Flex>
            </Form>
          ) : (
            <TestResult test={null} last={settings.lastTest} />
          )}
        </Card>
        {canWrite ? (
          <Card size="3">
            <Heading as="h2" size="5" mb="2">
              Configuración fiscal
            </Heading>
            <Text as="p" color="gray" size="2" mb="4">
              En ARCA: creá un punto de venta «RECE para aplicativo y web services», generá el certificado para el CUIT {cuit ?? "de la empresa"} en «Administración de
              certificados digitales» y asocialo al servicio «Facturación electrónica» (wsfe). Usá homologación para probar sin valor fiscal.
            </Text>
            <FormError errors={form.errors} id={form.errorId} />
            <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="save" />
              <Flex direction="column" gap="4">
                <SelectField meta={fields.taxCondition} label="Condición frente al IVA" options={TAX_CONDITIONS.map((v) => ({ value: v, label: TAX_CONDITION_LABELS[v] }))} />
                <Field meta={fields.pointOfSale} label="Punto de venta" inputMode="numeric" hint="El número del punto de venta para web services, de 1 a 99999." />
                <SelectField meta={fields.environment} label="Entorno de ARCA" options={ARCA_ENVIRONMENTS.map((v) => ({ value: v, label: ARCA_ENVIRONMENT_LABELS[v] }))} />
                <PemField name="certificate" label="Certificado (.crt o .pem)" meta={fields.certificate} hint={settings.configured ? "Dejalo vacío para conservar el actual." : "El que te entregó ARCA."} />
                <PemField name="privateKey" label="Clave privada (.key)" meta={fields.privateKey} hint="La clave con la que generaste el pedido del certificado, en PEM y sin contraseña." />
                <Flex gap="2" align="center">
                  <BiLockAlt aria-hidden="true" />
                  <Text size="2" color="gray">
                    Guardamos el certificado y la clave cifrados y no los volvemos a mostrar.
                  </Text>
                </Flex>
                <Flex>
                  <Button type="submit" size="3" disabled={busy}>
                    Guardar
                  </Button>
                </Flex>
              </Flex>
            </Form>
          </Card>
        ) : null}
      </Flex>
    </>
  );
}

function PemField({ name, label, hint, meta }: { name: string; label: string; hint: string; meta: Parameters<typeof FieldBelow>[0]["meta"] & { id: string; errorId: string } }) {
  const hintId = `${meta.id}-hint`;
  const invalid = Boolean(meta.errors?.length);
  return (
    <Flex direction="column" gap="1">
      <Text as="label" size="2" weight="medium" htmlFor={meta.id}>
        {label}
      </Text>
      <input id={meta.id} name={name} type="file" accept=".crt,.pem,.cer,.key,.txt" aria-invalid={invalid || undefined} aria-describedby={invalid ? `${meta.errorId} ${hintId}` : hintId} />
      <FieldBelow meta={meta} hint={hint} hintId={hintId} />
    </Flex>
  );
}
