// What a page that could not be shown says: one Spanish title and explanation per status, the same
// inside the app (where the navigation stays around it) and outside it (the root's bare page).
import { isRouteErrorResponse } from "react-router";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";

export interface RouteErrorCopy {
  status: number;
  title: string;
  detail: string;
}

const TITLES: Record<number, string> = {
  400: "No pudimos leer el formulario",
  403: "No tenés acceso a esta página",
  404: "No encontramos esta página",
  415: "No pudimos leer el formulario",
  429: "Esperá un momento",
  502: "El servicio no está disponible",
  503: "El servicio no está disponible",
};

/** The Spanish message the server put in a thrown error's data (a `{ message }` or a plain text body), if any. */
function serverMessage(error: unknown): string | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const body = error.data as { message?: unknown } | string | null;
  const message = typeof body === "string" ? body : body?.message;
  return typeof message === "string" && message ? message : undefined;
}

/** The status, title and explanation for an error a route threw; anything but a thrown response is a 500 that shows no internals. */
export function routeErrorCopy(error: unknown): RouteErrorCopy {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = TITLES[status] ?? "Algo salió mal";
  const said = serverMessage(error);
  switch (status) {
    case 400:
    case 415:
      // A post the form guard could not read: its Spanish reason (wrong content type, broken body).
      return { status, title, detail: said || "Volvé a cargar la página y probá de nuevo." };
    case 403:
      // The guard says which permission the member's role lacks, in Spanish.
      return { status, title, detail: said || "Tu cuenta no tiene permiso para ver este contenido." };
    case 404:
      // Never the server's words for a missing row: the same sentence whether it never existed or belongs to someone else.
      return { status, title, detail: "La dirección no existe o ya no está disponible." };
    case 429:
      // The wait, from the limit that refused the page ("Demasiados intentos. Probá de nuevo en N minutos.").
      return { status, title, detail: said || "Demasiados intentos. Probá de nuevo en unos minutos." };
    case 502:
    case 503:
      // What could not be read ("No pudimos cargar los datos…"), always with when to retry.
      return { status, title, detail: said || "El servicio no está disponible en este momento. Probá de nuevo en unos minutos." };
    default:
      return { status, title, detail: "Tuvimos un problema al mostrar esta página. Probá de nuevo en unos minutos." };
  }
}

/** An unexpected error (not a thrown response) goes to the server log; the page shows no internals. */
export function logUnexpected(error: unknown) {
  if (!isRouteErrorResponse(error) && typeof console !== "undefined") console.error("Error inesperado al mostrar la página", error);
}

/** The status, its title and explanation, and a way back to Inicio. */
export function RouteErrorMessage({ copy }: { copy: RouteErrorCopy }) {
  return (
    <Flex direction="column" align="center" gap="3" style={{ textAlign: "center", maxWidth: 520, margin: "0 auto" }} data-testid="route-error">
      <title>{`Error ${copy.status}`}</title>
      <Text size="8" weight="bold" color="sky">
        {copy.status}
      </Text>
      <Heading as="h1" size="6">
        {copy.title}
      </Heading>
      <Text as="p" color="gray">
        {copy.detail}
      </Text>
      <Button asChild size="3">
        <a href="/home">Volver al inicio</a>
      </Button>
    </Flex>
  );
}

/** The bare error page, for when there is no app around it (signed out, or the app itself could not load). */
export function RouteErrorPage({ error }: { error: unknown }) {
  logUnexpected(error);
  return (
    <main id="main" className="auth-shell">
      <RouteErrorMessage copy={routeErrorCopy(error)} />
    </main>
  );
}
