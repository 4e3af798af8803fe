// A screen inside the app that cannot be shown (404, 403, 503, an unexpected error) is said inside
// the app's frame by the layout's error boundary, so the navigation stays; when the frame itself
// could not load, the bare error page stands alone.
import { describe, expect, it, vi } from "vitest";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useRouteError, type RouteObject } from "react-router";
import * as layout from "~/routes/app/layout";
import { memberAccess } from "~/lib/access.server";
import { ensureFound, notFound, unavailable } from "~/lib/responses.server";
import { forbidden } from "~/lib/auth.server";

const SHELL = {
  appName: "Enchufá",
  businessName: "Cargas del Sur S.A.",
  photo: layout.BLANK_PHOTO,
  email: "ana@example.com",
  unread: 0,
  access: memberAccess("TECHNICIAN"),
  nav: ["/home", "/charger"],
  businessId: "b-1",
  companies: [],
};

type Props = Record<string, unknown>;
const Layout = layout.default as unknown as (props: Props) => React.ReactNode;
const Boundary = layout.ErrorBoundary as unknown as (props: Props) => React.ReactNode;

/** Renders `path` under the app layout, as the framework would: the layout's loader data, its screen's loader throwing `fail`. */
async function render(path: string, fail: () => unknown, opts: { layoutFails?: boolean } = {}) {
  const routes: RouteObject[] = [
    {
      id: "routes/app/layout",
      path: "/",
      loader: () => (opts.layoutFails ? unavailable() : SHELL),
      Component: () => <Layout loaderData={SHELL} />,
      ErrorBoundary: () => <Boundary error={useRouteError()} />,
      children: [{ path: "charger/edit/:id", loader: fail, Component: () => null }],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://app.test${path}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  return { status: context.statusCode, html: renderToString(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />) };
}

const NAV = 'aria-label="Menú principal"';
const PAGE = "/charger/edit/11111111-2222-4333-8444-555555555555";

describe("the app layout's error boundary", () => {
  it("a missing row (ensureFound) is the 404 message inside the app, with the navigation", async () => {
    const { status, html } = await render(PAGE, () => ensureFound(null));
    expect(status).toBe(404);
    expect(html).toContain(NAV);
    expect(html).toContain("Mis cargadores");
    expect(html).toContain("No encontramos esta página");
    expect(html).toContain("La dirección no existe o ya no está disponible.");
  });

  it("a refused role (403) keeps the navigation and says which permission is missing", async () => {
    const { status, html } = await render(PAGE, () => forbidden("TECHNICIAN", "payment.read"));
    expect(status).toBe(403);
    expect(html).toContain(NAV);
    expect(html).toContain("No tenés acceso a esta página");
    expect(html).toContain("Tu rol (Técnico)");
  });

  it("the API down (503) says what could not be read and when to retry, inside the app", async () => {
    const { status, html } = await render(PAGE, () => unavailable());
    expect(status).toBe(503);
    expect(html).toContain(NAV);
    expect(html).toContain("El servicio no está disponible");
    expect(html).toContain("No pudimos cargar los datos en este momento. Probá de nuevo en unos minutos.");
  });

  it("an unexpected error is a 500 without internals, inside the app (and in the server log)", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { html } = await render(PAGE, () => {
      throw new Error("boom: secret stack");
    });
    expect(html).toContain(NAV);
    expect(html).toContain("Algo salió mal");
    expect(html).not.toContain("secret stack");
    expect(log).toHaveBeenCalledWith("Error inesperado al mostrar la página", expect.any(Error));
    log.mockRestore();
  });

  it("when the frame itself cannot load, the bare error page stands alone", async () => {
    const { status, html } = await render(PAGE, () => notFound(), { layoutFails: true });
    expect(status).toBe(503);
    expect(html).not.toContain(NAV);
    expect(html).toContain("El servicio no está disponible");
  });
});

describe("ensureFound", () => {
  it("gives the value back, and throws the 404 for null, undefined or false", () => {
    expect(ensureFound(0)).toBe(0);
    expect(ensureFound("")).toBe("");
    for (const missing of [null, undefined, false]) {
      try {
        ensureFound(missing, "No encontramos esa tarjeta.");
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ data: { message: "No encontramos esa tarjeta." }, init: { status: 404 } });
      }
    }
  });
});
