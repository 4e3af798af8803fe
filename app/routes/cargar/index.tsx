// /cargar: where a driver types the short code printed under a connector's QR when the camera
// cannot read it. A GET form: it works without JavaScript and the code goes to
// /cargar/{ocppIdentity}/{connectorId}.
import { Form, redirect } from "react-router";
import { parseShortCode } from "~/lib/qr.server";
import { DriverShell } from "~/components/driver/DriverShell";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => {
  const app = (matches.find((m) => m?.id === "root")?.data as { appName?: string } | undefined)?.appName ?? "Enchufá";
  return [{ title: `Cargar - ${app}` }];
};

const CODE_MESSAGE = "Revisá el código: es el que figura debajo del QR, por ejemplo AR-BUE-0001-1.";

export function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("codigo");
  if (code === null) return { code: "", error: null };
  const parsed = parseShortCode(code);
  if (parsed) throw redirect(`/cargar/${encodeURIComponent(parsed.identity)}/${parsed.connector}`);
  return { code: code.slice(0, 80), error: CODE_MESSAGE };
}

export default function TypeCode({ loaderData }: Route.ComponentProps) {
  const { code, error } = loaderData;
  return (
    <DriverShell title="Cargar">
      <section className="driver-card" aria-labelledby="code-title">
        <h2 id="code-title">Escribí el código del conector</h2>
        <p className="driver-muted">Está impreso debajo del QR, junto al conector.</p>
        <Form method="get" className="driver-field">
          <label htmlFor="codigo">Código</label>
          <input
            id="codigo"
            name="codigo"
            defaultValue={code}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "codigo-error" : undefined}
          />
          {error ? (
            <p id="codigo-error" className="driver-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="driver-button">
            Continuar
          </button>
        </Form>
      </section>
    </DriverShell>
  );
}
