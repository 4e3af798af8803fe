import { data, Link } from "react-router";
import { Button, Flex, Text } from "@radix-ui/themes";
import { BiCheckCircle, BiErrorCircle } from "~/icons";
import { pageMeta } from "~/lib/meta";
import { identityClient } from "~/lib/auth.server";
import { identityErrorMessage, isBadOobCode } from "~/lib/identity.server";
import { commitSession, getSession } from "~/lib/session.server";
import { ScreenHeading } from "~/components/messages";
import type { Route } from "./+types/verify-email";

export const meta = pageMeta("Verificar email");

export const VERIFIED_MESSAGE = "¡Listo! Tu correo quedó verificado. Ya podés ingresar.";

/**
 * The link from the verification e-mail (`/auth?mode=verifyEmail&oobCode=…` lands here) applies
 * its code once, on arrival, as Firebase's own handler does; then the login is offered.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const oobCode = url.searchParams.get("oobCode");
  if (!oobCode) return data({ verified: false as const, message: "El enlace no es válido. Pedí uno nuevo ingresando con tu correo." }, { status: 400 });
  try {
    const { email } = await identityClient(context).applyEmailVerification(oobCode);
    // Nothing left to resend for this address.
    const session = await getSession(request);
    const pending = session.get("pending");
    const headers = new Headers();
    if (pending && (!email || pending.email === email.toLowerCase())) {
      session.unset("pending");
      headers.append("Set-Cookie", await commitSession(session));
    }
    return data({ verified: true as const, message: VERIFIED_MESSAGE, email }, { headers });
  } catch (error) {
    const message = isBadOobCode(error)
      ? "El enlace venció o ya fue usado. Si todavía no verificaste tu correo, ingresá y pedí un enlace nuevo."
      : identityErrorMessage(error).message;
    return data({ verified: false as const, message }, { status: isBadOobCode(error) ? 400 : 503 });
  }
}

// Applying a code is a one-time thing: never re-run this loader after an action elsewhere.
export const shouldRevalidate = () => false;

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  const result = loaderData;
  return (
    <>
      <Flex justify="center" mb="2" aria-hidden="true" style={{ color: result.verified ? "#1f7a4d" : "#c40000" }}>
        {result.verified ? <BiCheckCircle size={48} /> : <BiErrorCircle size={48} />}
      </Flex>
      <ScreenHeading title="Verificar email" />
      <Flex direction="column" gap="4">
        <Text as="p" size="3" role={result.verified ? "status" : "alert"} data-testid="verify-result">
          {result.message}
        </Text>
        <Button asChild size="3">
          <Link to="/auth/login">Ingresar</Link>
        </Button>
      </Flex>
    </>
  );
}
