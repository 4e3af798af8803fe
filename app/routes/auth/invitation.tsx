// /auth/invitation?token=…: where an invitation e-mail's link lands. It says which
// company and role it offers and whether it still works. Signed in with the invited address: one
// button joins. Not signed in: the link is kept (sealed) in the session, and the next sign-in —
// after creating the account through the normal registration, if there is none — joins.
import { data, Form, Link, useNavigation } from "react-router";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import type { InvitationPreviewDto } from "#contract/dto";
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from "#domain/permissions";
import { BiGroup } from "~/icons";
import { pageMeta } from "~/lib/meta";
import { destinationFor, fetchBusinessAccount, requireUserSession } from "~/lib/auth.server";
import { commitSession, getSession } from "~/lib/session.server";
import { joinWithInvitation, lookupInvitation, rememberInvitation } from "~/lib/team.server";
import { dataWithError, redirectWithSuccess } from "~/lib/toast.server";
import { InfoMessage, ScreenHeading } from "~/components/messages";
import type { Route } from "./+types/invitation";

export const meta = pageMeta("Invitación");

const TOKEN_RE = /^[A-Za-z0-9_-]{20,128}$/;
export const INVALID_LINK_MESSAGE = "El enlace de la invitación no es válido. Revisá que esté completo o pedí que te la reenvíen.";
const STATE_MESSAGES: Record<Exclude<InvitationPreviewDto["state"], "PENDING">, string> = {
  EXPIRED: "La invitación venció. Pedile a quien te invitó que te la reenvíe.",
  ACCEPTED: "Esta invitación ya fue usada.",
  REVOKED: "La invitación fue revocada.",
};

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const session = await getSession(request);
  const signedIn = session.get("user");
  const base = { token, signedInAs: signedIn?.email ?? null };
  if (!TOKEN_RE.test(token)) return data({ ...base, preview: null, problem: INVALID_LINK_MESSAGE }, { status: 404 });
  let preview: InvitationPreviewDto | null;
  try {
    preview = await lookupInvitation(context, token);
  } catch {
    return data({ ...base, preview: null, problem: "No pudimos leer la invitación en este momento. Probá de nuevo en unos minutos." }, { status: 503 });
  }
  if (!preview) return data({ ...base, preview: null, problem: INVALID_LINK_MESSAGE }, { status: 404 });
  if (preview.state !== "PENDING") return data({ ...base, preview, problem: STATE_MESSAGES[preview.state] }, { status: 410 });
  // Not signed in: keep the link for the sign-in (or registration) that follows.
  const headers = new Headers();
  if (!signedIn) {
    rememberInvitation(session, token, preview);
    headers.append("Set-Cookie", await commitSession(session));
  }
  return data({ ...base, preview, problem: null as string | null }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session, headers } = await requireUserSession(request, context);
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  if (!TOKEN_RE.test(token)) return dataWithError(context, { error: INVALID_LINK_MESSAGE }, INVALID_LINK_MESSAGE, { status: 400, headers });
  const joined = await joinWithInvitation(context, session, user.idToken, token);
  if (!joined.ok) return dataWithError(context, { error: joined.message }, joined.message, { status: joined.status, headers });
  const account = await fetchBusinessAccount(context, user.idToken, { signIn: true }).catch(() => undefined);
  headers.append("Set-Cookie", await commitSession(session));
  return redirectWithSuccess(destinationFor(account, "/home"), joined.message, { headers });
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const { preview, problem, signedInAs, token } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/invitation");
  const wrongAccount = preview && signedInAs && signedInAs.toLowerCase() !== preview.email;
  return (
    <>
      <Flex justify="center" mb="2" aria-hidden="true" style={{ color: "var(--enchufa-primary-text)" }}>
        <BiGroup size={48} />
      </Flex>
      <ScreenHeading title="Invitación">
        {preview ? (
          <>
            Te invitaron a unirte a <Strong>«{preview.businessName}»</Strong> con el rol <Strong>{ROLE_LABELS[preview.role]}</Strong>.
          </>
        ) : null}
      </ScreenHeading>
      <Flex direction="column" gap="4" data-testid="invitation">
        {problem ? (
          <InfoMessage color="amber" testId="invitation-problem">
            {problem}
          </InfoMessage>
        ) : null}
        {actionData?.error ? (
          <InfoMessage color="red" testId="invitation-error">
            {actionData.error}
          </InfoMessage>
        ) : null}
        {preview && !problem ? (
          <>
            <Text as="p" size="2" color="gray" data-testid="invitation-role">
              {ROLE_LABELS[preview.role]}: {ROLE_DESCRIPTIONS[preview.role]}
            </Text>
            {!signedInAs ? (
              <>
                <Text as="p" size="3">
                  La invitación es para <Strong>{preview.email}</Strong>. Ingresá con esa cuenta, o creala si todavía no tenés una: al ingresar te sumamos a la
                  empresa.
                </Text>
                <Button asChild size="3">
                  <Link to="/auth/login">Ingresá para aceptar</Link>
                </Button>
                <Button asChild size="3" variant="soft">
                  <Link to="/auth/register">Creá tu cuenta</Link>
                </Button>
              </>
            ) : wrongAccount ? (
              <>
                <InfoMessage color="amber" testId="invitation-wrong-account">
                  La invitación es para {preview.email} y ingresaste como {signedInAs}. Salí e ingresá con la cuenta invitada.
                </InfoMessage>
                <Form method="post" action="/logout">
                  <Button type="submit" size="3" variant="soft" style={{ width: "100%" }}>
                    Salir
                  </Button>
                </Form>
              </>
            ) : (
              <Form method="post">
                <input type="hidden" name="token" value={token} />
                <Button type="submit" size="3" disabled={busy} style={{ width: "100%" }}>
                  Aceptar la invitación
                </Button>
              </Form>
            )}
          </>
        ) : (
          <Button asChild size="3" variant="soft">
            <Link to={signedInAs ? "/home" : "/auth/login"}>{signedInAs ? "Ir al inicio" : "Ir a Ingresá"}</Link>
          </Button>
        )}
      </Flex>
    </>
  );
}

// The link's token is in the query: never sent to another site (no-referrer would make form posts say `Origin: null`, which the CSRF guard refuses).
export const headers = () => ({ "Referrer-Policy": "same-origin" });
