// Fonts and only the Radix Themes CSS the app uses: tokens, six colour scales, components and
// utilities, pruned further at build time (scripts/vite/radix-css-subset.ts; budget in
// docs/benchmarks.md).
import "./styles/fonts.css";
import "@radix-ui/themes/tokens/base.css";
import "@radix-ui/themes/tokens/colors/sky.css";
import "@radix-ui/themes/tokens/colors/gray.css";
import "@radix-ui/themes/tokens/colors/red.css";
import "@radix-ui/themes/tokens/colors/green.css";
import "@radix-ui/themes/tokens/colors/amber.css";
import "@radix-ui/themes/tokens/colors/purple.css";
import "@radix-ui/themes/components.css";
import "@radix-ui/themes/utilities.css";
import "./styles/app.css";

// The two weights nearly every screen paints with, preloaded so text is not laid out twice
// (fallback, then Roboto) — a font swap over a long list is a visible layout shift.
import roboto400 from "@fontsource/roboto/files/roboto-latin-400-normal.woff2?url";
import roboto500 from "@fontsource/roboto/files/roboto-latin-500-normal.woff2?url";

import { data, type ShouldRevalidateFunction, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router";
import { ThemeRoot } from "~/components/ThemeRoot";
import { RouteErrorPage } from "~/components/RouteError";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Toaster } from "~/components/Toaster";
import { PendingIndicator } from "~/components/PendingIndicator";
import { LowPriorityModulePreloads } from "~/components/ModulePreloads";
import { useNonce } from "~/lib/nonce";
import { readToast } from "~/lib/toast.server";
import { passRetryAfter } from "~/lib/rate-limit.server";
import { appContext, pendingToast } from "~/lib/context";
import { formGuard } from "~/lib/form-guard.server";
import type { Route } from "./+types/root";

// A post that is not a readable form is refused before any action reads it (app/lib/form-guard.server.ts).
export const middleware: Route.MiddlewareFunction[] = [formGuard];

export const links: Route.LinksFunction = () =>
  [roboto400, roboto500].map((href) => ({ rel: "preload", href, as: "font", type: "font/woff2", crossOrigin: "anonymous" as const }));

export async function loader({ request, context }: Route.LoaderArgs) {
  const { appName, googleMapsApiKey, firebase = null } = appContext(context).config; // firebase: web push registration (app/push)
  const pending = pendingToast(context);
  if (pending) return data({ appName, googleMapsApiKey, firebase, toast: pending });
  const { toast, headers } = await readToast(request);
  return data({ appName, googleMapsApiKey, firebase, toast }, { headers: toast ? headers : undefined });
}

/**
 * React Router skips revalidation after an action that answered 4xx/5xx; the root loader must still run
 * then, because that is where the action's flash toast (remix-toast's cookie) is read.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionStatus, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET" && actionStatus !== undefined && actionStatus >= 400) return true;
  return defaultShouldRevalidate;
};

/**
 * After a client-side navigation to another screen, the keyboard focus starts again from the top
 * of the page, as after a full page load (the next Tab reaches the skip link), and the new page's
 * title is announced. Changes of the query alone (filters, sort, pages) keep the focus where it is.
 */
function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById("page-top")?.focus({ preventScroll: true });
    const timer = window.setTimeout(() => setAnnouncement(document.title), 100);
    return () => window.clearTimeout(timer);
  }, [pathname]);
  return (
    <div id="page-top" tabIndex={-1} className="visually-hidden" aria-live="polite" aria-atomic="true">
      {announcement}
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // The Layout also wraps the error boundary, where the root's data may be missing: no props here.
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="es-AR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3dbdff" />
        <meta name="description" content={`${root?.appName ?? "Enchufá"}: el panel de los operadores de carga de vehículos eléctricos.`} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        <ThemeRoot>
          <RouteFocus />
          <PendingIndicator />
          {children}
        </ThemeRoot>
        <ScrollRestoration nonce={nonce} />
        <LowPriorityModulePreloads />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData: { toast } }: Route.ComponentProps) {
  return (
    <>
      <Toaster toast={toast} />
      <Outlet />
    </>
  );
}

/** A page refused for too many requests (429) keeps its Retry-After, as a thrown error too. */
export const headers = passRetryAfter;

/** The one general error boundary: a Spanish message, a way back, no internals. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
