import { data, redirect, Form, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { companySchema } from "~/lib/schemas/auth";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { fetchBusinessAccount, loginRedirect, requireUserSession, safeRedirect } from "~/lib/auth.server";
import { destroySession } from "~/lib/session.server";
import { redirectWithInfo, redirectWithSuccess } from "~/lib/toast.server";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import type { Route } from "./+types/login-company";

export const meta = pageMeta("Ingresá tu empresa");

/** After a registration pending review; the same whether or not the CUIT was already registered. */
export const REGISTRATION_RECEIVED_MESSAGE = "Recibimos tu solicitud. Te avisamos cuando la revisemos.";

export const COMPANY_FIELDS = ["businessName", "cuit", "businessAddress", "phoneNumber"] as const;

/** A verified account without a company fills this in; with a company it goes on. */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user, session, headers } = await requireUserSession(request, context);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "") || undefined;
  const business = await fetchBusinessAccount(context, user.idToken);
  if (!business) throw loginRedirect(request, { headers: { "Set-Cookie": await destroySession(session) } });
  if (business.exists) {
    throw redirect(business.status === "ACTIVE" ? safeRedirect(redirectTo) : "/auth/verify-company", { headers });
  }
  return data({ email: user.email, redirectTo }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session, headers } = await requireUserSession(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: companySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const { redirectTo, ...company } = submission.value;

  const api = createApiClient(context, user.idToken);
  let response: Response;
  try {
    response = await api.post("/Account/Business", company);
  } catch {
    const message = "No pudimos registrar tu empresa en este momento. Probá de nuevo en unos minutos.";
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 503, headers });
  }

  if (response.status === 401) throw loginRedirect(request, { headers: { "Set-Cookie": await destroySession(session) } });
  if (!response.ok) {
    const problem = await readJson<ApiProblem>(response);
    const fieldErrors: Record<string, string[]> = {};
    for (const [field, errors] of Object.entries(problem?.errors ?? {})) {
      if ((COMPANY_FIELDS as readonly string[]).includes(field) && errors?.length) fieldErrors[field] = [errors[0]];
    }
    const title = problem?.title || "No pudimos registrar tu empresa. Revisá los datos.";
    if (response.status === 409 && !Object.keys(fieldErrors).length) fieldErrors.cuit = [title];
    const reply = Object.keys(fieldErrors).length
      ? submission.reply({ fieldErrors })
      : submission.reply({ formErrors: [title] });
    return data({ result: reply }, { status: response.status, headers });
  }

  // Local mode approves valid companies at once; otherwise the company waits for approval.
  const created = await readJson<{ status?: string }>(response);
  const status = created?.status ?? (await fetchBusinessAccount(context, user.idToken).catch(() => undefined))?.status;
  if (status === "ACTIVE") return redirectWithSuccess(safeRedirect(redirectTo), "¡Listo! Tu empresa quedó registrada.", { headers });
  return redirectWithInfo("/auth/verify-company", REGISTRATION_RECEIVED_MESSAGE, { headers });
}

export default function LoginCompany({ loaderData, actionData }: Route.ComponentProps) {
  const { email, redirectTo } = loaderData;
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.companySchema));
  const [form, fields] = useForm({
    id: "login-company",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/login-company");

  return (
    <>
      <ScreenHeading title="Ingresá tu empresa">
        Completá los datos de la empresa que opera las estaciones de carga. Los usamos para verificarla y para tu facturación.
      </ScreenHeading>
      <Flex direction="column" gap="4">
        <FormError errors={form.errors} id={form.errorId} />
        <Form method="post" {...getFormProps(form)}>
          <Flex direction="column" gap="4">
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            <Field meta={fields.businessName} label="Razón social" autoComplete="organization" />
            <Field meta={fields.cuit} label="CUIT" inputMode="numeric" hint="11 dígitos, con o sin guiones (por ejemplo 30-71234567-1)." />
            <Field meta={fields.businessAddress} label="Domicilio" autoComplete="street-address" hint="Calle, número, localidad y provincia." />
            <Field meta={fields.phoneNumber} label="Teléfono" type="tel" autoComplete="tel" inputMode="tel" />
            <Button type="submit" size="3" disabled={busy}>
              Continuar
            </Button>
          </Flex>
        </Form>
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <Text size="2" color="gray">
            Ingresaste como <Strong>{email}</Strong>
          </Text>
          <Form method="post" action="/logout">
            <Button type="submit" variant="ghost" size="2" color="gray">
              Salir
            </Button>
          </Form>
        </Flex>
      </Flex>
    </>
  );
}
