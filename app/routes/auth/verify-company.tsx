import { data, redirect, Form, Link } from "react-router";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import { BiErrorCircle, BiTimeFive } from "~/icons";
import { pageMeta } from "~/lib/meta";
import { fetchBusinessAccount, loginRedirect, requireUserSession, type BusinessStatus } from "~/lib/auth.server";
import { destroySession } from "~/lib/session.server";
import { InfoMessage, ScreenHeading } from "~/components/messages";
import type { Route } from "./+types/verify-company";

// The spec's title is for the pending state; a rejected or suspended company is told what is true.
export const COMPANY_STATUS_TITLES = {
  PENDING: "Verificación pendiente",
  REJECTED: "Empresa no aprobada",
  SUSPENDED: "Cuenta suspendida",
} as const satisfies Record<Exclude<BusinessStatus, "ACTIVE">, string>;

export const meta = pageMeta((data) => COMPANY_STATUS_TITLES[(data as { status?: keyof typeof COMPANY_STATUS_TITLES } | undefined)?.status ?? "PENDING"]);

/** Shown while the company is not active: what is going on and what happens next. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, session, headers } = await requireUserSession(request, context);
  const business = await fetchBusinessAccount(context, user.idToken);
  if (!business) throw loginRedirect(request, { headers: { "Set-Cookie": await destroySession(session) } });
  // A registration whose CUIT another company holds reads as pending review too (the API holds it).
  if (!business.exists) throw redirect("/auth/login-company", { headers });
  if (business.status === "ACTIVE") throw redirect("/home", { headers });
  const status: Exclude<BusinessStatus, "ACTIVE"> = business.status ?? "PENDING";
  return data({ status, businessName: business.businessName, email: user.email }, { headers });
}

export default function VerifyCompany({ loaderData }: Route.ComponentProps) {
  const { status, businessName, email } = loaderData;
  const company = businessName ? <Strong>{businessName}</Strong> : "tu empresa";

  return (
    <>
      <Flex justify="center" mb="2" aria-hidden="true" style={{ color: status === "PENDING" ? "var(--enchufa-secondary-text)" : "var(--amber-11)" }}>
        {status === "PENDING" ? <BiTimeFive size={48} /> : <BiErrorCircle size={48} />}
      </Flex>
      <ScreenHeading title={COMPANY_STATUS_TITLES[status]} />
      <Flex direction="column" gap="4" data-status={status} data-testid="company-status">
        {status === "PENDING" ? (
          <>
            <Text as="p" size="3">
              Recibimos los datos de {company}. Estamos verificando la razón social y el CUIT; suele llevar uno o dos días hábiles.
            </Text>
            <Text as="p" size="3">
              Cuando la aprobemos, vas a entrar directo al panel con <Strong>{email}</Strong> para cargar tus estaciones, cargadores y
              tarifas. Podés cerrar esta página y volver más tarde.
            </Text>
          </>
        ) : status === "REJECTED" ? (
          <InfoMessage color="red" testId="company-rejected">
            No pudimos aprobar {company} con los datos que ingresaste: no coincidieron con los registros del CUIT. Comunicate con
            soporte y tené a mano la constancia de inscripción en ARCA (ex AFIP) para que la revisemos de nuevo.
          </InfoMessage>
        ) : (
          <InfoMessage color="amber" testId="company-suspended">
            La cuenta de {company} está suspendida y por ahora no puede operar en la plataforma. Comunicate con soporte para conocer el
            motivo y los pasos para reactivarla.
          </InfoMessage>
        )}
        <Button asChild size="3" variant="soft">
          <Link to="/auth/verify-company" reloadDocument>
            Volver a comprobar
          </Link>
        </Button>
        <Form method="post" action="/logout">
          <Button type="submit" size="3" variant="outline" style={{ width: "100%" }}>
            Salir
          </Button>
        </Form>
      </Flex>
    </>
  );
}
