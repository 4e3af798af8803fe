import { data, redirect, Form, useNavigation } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import { pageMeta } from "~/lib/meta";
import { companySchema } from "~/lib/schemas/auth";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM } from "~/lib/api.server";
import { problemReply } from "~/lib/problem-reply";
import { fetchBusinessAccount, loginRedirect, requireUserSession, safeRedirect } from "~/lib/auth.server";
import { destroySession } from "~/lib/session.server";
import { redirectWithInfo, redirectWithSuccess } from "~/lib/toast.server";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError, ScreenHeading } from "~/components/messages";
import { useLazySchema } from "~/components/lazy-validation";
import { onFirstInteraction } from "~/components/first-interaction";
import type { Route } from "./+types/login-company";

export const meta = pageMeta("Ingresá tu empresa");

/** After a registration pending review; the same whether or not the CUIT was already registered. */
export const REGISTRATION_RECEIVED_MESSAGE = "Recibimos tu solicitud. Te avisamos cuando la revisemos.";

export const COMPANY_FIELDS = ["businessName", "cuit", "businessAddress", "phoneNumber"] as const;
const COMPANY_FIELD_SET: ReadonlySet<string> = new Set(COMPANY_FIELDS);

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

  const result = await createApiClient(context, user.idToken).call(endpoints.accountBusinessCreate, { body: company });
  if (!result.ok && result.problem.type === UNREACHABLE_PROBLEM && result.status === 503) {
    const message = "No pudimos registrar tu empresa en este momento. Probá de nuevo en unos minutos.";
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 503, headers });
  }
  if (result.status === 401) throw loginRedirect(request, { headers: { "Set-Cookie": await destroySession(session) } });
  // An answer without a body (502) counts as registered: the account's state says how it went.
  if (!result.ok && result.problem.type !== UNREACHABLE_PROBLEM) {
    const fallback = "No pudimos registrar tu empresa. Revisá los datos.";
    const title = result.problem.title || fallback;
    const onFields = Object.keys(result.problem.errors ?? {}).some((field) => COMPANY_FIELD_SET.has(field));
    // A CUIT already taken (409) with no field named is the CUIT's error.
    if (result.status === 409 && !onFields) return data({ result: submission.reply({ fieldErrors: { cuit: [title] } }) }, { status: 409, headers });
    const { reply } = problemReply(submission, { ...result, problem: onFields ? result.problem : { ...result.problem, errors: undefined } }, { fallback, field: COMPANY_FIELD_SET, firstOnly: true });
    return data({ result: reply }, { status: result.status, headers });
  }

  // Local mode approves valid companies at once; otherwise the company waits for approval.
  const created = result.ok ? result.data : undefined;
  const status = created?.status ?? (await fetchBusinessAccount(context, user.idToken).catch(() => undefined))?.status;
  if (status === "ACTIVE") return redirectWithSuccess(safeRedirect(redirectTo), "¡Listo! Tu empresa quedó registrada.", { headers });
  return redirectWithInfo("/auth/verify-company", REGISTRATION_RECEIVED_MESSAGE, { headers });
}

export default function LoginCompany({ loaderData, actionData }: Route.ComponentProps) {
  const { email, redirectTo } = loaderData;
  const navigation = useNavigation();
  const onValidate = useLazySchema(() => import("~/lib/schemas/auth").then((m) => m.companySchema), onFirstInteraction);
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
