import { Form, Link, useNavigation } from "react-router";
import { Button, Flex, Strong, Text } from "@radix-ui/themes";
import { BiEnvelope } from "~/icons";
import { pageMeta } from "~/lib/meta";
import { clientKey, identityClient } from "~/lib/auth.server";
import { IdentityError } from "~/lib/identity.server";
import { consume, limiters, passRetryAfter, retryAfterHeaders } from "~/lib/rate-limit.server";
import { getSession, openSecret } from "~/lib/session.server";
import { dataWithError, redirectWithInfo, redirectWithSuccess } from "~/lib/toast.server";
import { FormError, ScreenHeading } from "~/components/messages";
import type { Route } from "./+types/email-send";

export const meta = pageMeta("Correo enviado");

/** A refused attempt (429) says when to try again, on the page and on its `.data` answer. */
export const headers = passRetryAfter;

export const RESENT_MESSAGE = "Te reenviamos el correo. Revisá también la carpeta de correo no deseado.";

export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSession(request);
  const pending = session.get("pending");
  // Registered through an invitation: the next step is joining that company, not registering one.
  return { email: pending?.email, kind: pending?.kind, joining: session.get("invitation")?.businessName ?? null };
}

/** What comes after verifying the account: joining the inviting company, or registering one's own. */
export function afterVerifying(joining: string | null): string {
  return joining
    ? `Abrí el enlace del correo para verificar tu cuenta. Después vas a poder ingresar y sumarte a ${joining}.`
    : "Abrí el enlace del correo para verificar tu cuenta. Después vas a poder ingresar y registrar tu empresa.";
}

/** "Send it again": the verification e-mail (with the sealed refresh token) or the reset link. Rate-limited. */
export async function action({ request, context }: Route.ActionArgs) {
  const session = await getSession(request);
  const pending = session.get("pending");
  if (!pending) return redirectWithInfo("/auth/login", "Ingresá con tu correo para que te enviemos un enlace nuevo.");

  const limited = await consume(
    [
      { limiter: limiters.resendIp, key: clientKey(context) },
      { limiter: limiters.resendEmail, key: pending.email },
    ],
    { count: true },
  );
  if (limited) {
    return dataWithError(context, { error: limited.message }, limited.message, { status: 429, headers: retryAfterHeaders(limited) });
  }

  const identity = identityClient(context);
  try {
    if (pending.kind === "reset") {
      await identity.sendPasswordReset(pending.email);
    } else {
      const refreshToken = openSecret(pending.sealed);
      if (refreshToken) {
        const fresh = await identity.refresh(refreshToken);
        await identity.sendEmailVerification(fresh.idToken);
      }
    }
  } catch (error) {
    // Unknown addresses, used-up or revoked tokens get the same answer (never reveal an account).
    const unavailable = !(error instanceof IdentityError) || error.status >= 500;
    if (unavailable) {
      const message = "No pudimos enviar el correo en este momento. Probá de nuevo en unos minutos.";
      return dataWithError(context, { error: message }, message, { status: 503 });
    }
  }
  return redirectWithSuccess("/auth/email-send", RESENT_MESSAGE);
}

export default function EmailSend({ loaderData, actionData }: Route.ComponentProps) {
  const { email, kind, joining } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth/email-send");

  return (
    <>
      <Flex justify="center" mb="2" aria-hidden="true" style={{ color: "var(--enchufa-primary-text)" }}>
        <BiEnvelope size={48} />
      </Flex>
      <ScreenHeading title="Revisá tu correo">
        {email ? (
          <>
            Te enviamos un correo a <Strong data-testid="sent-to">{email}</Strong>.
          </>
        ) : (
          "Te enviamos un correo electrónico con un enlace."
        )}
      </ScreenHeading>
      <Flex direction="column" gap="4">
        <Text as="p" size="3">
          {kind === "reset"
            ? "Si hay una cuenta con esa dirección, vas a recibir un enlace para elegir una nueva contraseña. El enlace vence en una hora."
            : afterVerifying(joining)}
        </Text>
        <Text as="p" size="2" color="gray">
          ¿No llegó? Esperá unos minutos y revisá la carpeta de correo no deseado. Si sigue sin aparecer, pedí que te lo enviemos de nuevo.
        </Text>
        <FormError errors={actionData?.error ? [actionData.error] : undefined} />
        {email ? (
          <Form method="post">
            <input type="hidden" name="intent" value="resend" />
            <Button type="submit" size="3" variant="soft" disabled={busy} style={{ width: "100%" }}>
              Reenviar correo
            </Button>
          </Form>
        ) : null}
        <Button asChild size="3">
          <Link to="/auth/login">Ir al ingreso</Link>
        </Button>
      </Flex>
    </>
  );
}
